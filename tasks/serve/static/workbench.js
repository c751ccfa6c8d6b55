// The workbench page: reads the pasted puzzle at once (a "read" job), runs
// the button's job and polls for its reply, stops it on Stop.  Every picture
// is pzc's own SVG, as the server sends it.
"use strict";

const $ = (id) => document.getElementById(id);
const ACTIONS = ["solve", "unique", "deduce", "explain", "generate"];
let running = null;        // the key of the job a button started
let reading = 0;           // the latest read's number: an older reply is dropped
let readJob = null;        // the key of the read running, if any
let readTimer = null;
let downloadUrl = null;

async function call(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  try {
    const response = await fetch(path, options);
    return await response.json();
  } catch (e) {
    return { status: "error", line: "Error", error: { message: "no answer from pzc serve: " + e } };
  }
}

function job(action) {
  return {
    action,
    puzzle: $("puzzle").value,
    spec: $("spec").value,
    spec_text: $("spec-text").value,
    timeout: $("timeout").value,
    backend: $("backend").value,
    size: $("size").value,
    seed: $("seed").value,
  };
}

// a job's reply once it is done (or stopped)
async function finished(key) {
  for (;;) {
    const reply = await call("GET", "/api/jobs/" + key + "?wait=10");
    if (reply.status !== "running") return reply;
  }
}

function showError(reply) {
  const box = $("error");
  if (reply.status === "error" && reply.error) {
    box.textContent = reply.error.text || reply.error.message;
    box.hidden = false;
  } else {
    box.hidden = true;
  }
}

function setStatus(kind, text) {
  const status = $("status");
  status.className = kind;
  status.textContent = text;
}

function showLinks(reply) {
  const link = $("puzzlink");
  link.hidden = !reply.url;
  if (reply.url) link.href = reply.url;
  $("generate").disabled = !reply.generate;
}

function showAnswerFile(reply) {
  const link = $("download");
  if (downloadUrl) URL.revokeObjectURL(downloadUrl);
  downloadUrl = null;
  link.hidden = !reply.pzprv3;
  if (reply.pzprv3) {
    downloadUrl = URL.createObjectURL(new Blob([reply.pzprv3], { type: "text/plain" }));
    link.href = downloadUrl;
    link.download = (reply.spec || "puzzle") + "-answer.txt";
  }
}

// keepStatus: the status line stays (a generated puzzle's, read after it is shown)
// a result belongs to the puzzle it was run on: gone when another is read
function clearResult() {
  $("result").innerHTML = "";
  $("result-caption").textContent = "Result";
  $("text").textContent = "";
  showAnswerFile({});
}

async function readPuzzle(keepStatus) {
  const mine = ++reading;
  // a read still running is for text that has changed since: it is stopped
  if (readJob) call("POST", "/api/jobs/" + readJob + "/stop", {});
  readJob = null;
  if (!$("puzzle").value.trim()) {
    $("board").innerHTML = "";
    return;
  }
  const started = await call("POST", "/api/jobs", job("read"));
  if (mine === reading) readJob = started.job || null;
  const reply = started.job ? await finished(started.job) : started;
  if (mine !== reading) return;
  readJob = null;
  showError(reply);
  if (!keepStatus) clearResult();
  if (reply.status === "error") {
    $("board").innerHTML = "";
    $("puzzlink").hidden = true;
    if (!running) setStatus("error", "The puzzle cannot be read");
    return;
  }
  $("board").innerHTML = reply.board || "";
  showLinks(reply);
  if (!running && !keepStatus) setStatus("idle", "Read as " + reply.spec + ": choose a task.");
}

function readSoon() {
  clearTimeout(readTimer);
  readTimer = setTimeout(() => readPuzzle(false), 250);
}

async function run(action) {
  if (running) await stop();
  setStatus("running", action + ": running ...");
  $("stop").disabled = false;
  const started = await call("POST", "/api/jobs", job(action));
  if (!started.job) return done(action, started);
  running = started.job;
  const reply = await finished(running);
  if (reply.job === running) done(action, reply);
}

function done(action, reply) {
  running = null;
  $("stop").disabled = true;
  showError(reply);
  const seconds = reply.elapsed_s !== undefined ? " (" + reply.elapsed_s.toFixed(2) + " s)" : "";
  setStatus(reply.status, reply.line + seconds);
  $("status").dataset.job = reply.job || "";    // which job the line is about
  $("explain").classList.toggle("suggested", reply.status === "none");   // it says why
  if (reply.status === "stopped") return;
  if (reply.svg) $("result").innerHTML = reply.svg;
  $("result-caption").textContent = action;
  $("text").textContent = (reply.text || []).join("\n");
  showAnswerFile(reply);
  if (reply.url !== undefined) showLinks(reply);
  if (action === "generate" && reply.puzzle) {
    $("puzzle").value = reply.puzzle;     // the new puzzle is the one to work on
    readPuzzle(true);
  }
}

async function stop() {
  const key = running;
  if (!key) return;
  running = null;
  const reply = await call("POST", "/api/jobs/" + key + "/stop", {});
  done("stop", reply);
}

async function listSpecs() {
  const reply = await call("GET", "/api/specs");
  const select = $("spec");
  for (const name of reply.specs || []) {
    const option = document.createElement("option");
    option.value = option.textContent = name;
    select.appendChild(option);
  }
}

function bookmarklet() {
  const target = location.origin + "/?url=";
  $("bookmarklet").href =
    "javascript:location.href=" + JSON.stringify(target) + "+encodeURIComponent(location.href)";
}

for (const action of ACTIONS) $(action).addEventListener("click", () => run(action));
$("stop").addEventListener("click", stop);
for (const id of ["puzzle", "spec", "spec-text"]) $(id).addEventListener("input", readSoon);
$("spec").addEventListener("change", readSoon);
bookmarklet();
listSpecs();
const given = new URLSearchParams(location.search).get("url");
if (given) {
  $("puzzle").value = given;
  readPuzzle(false);
}
