"""pzc serve: a local web page for setters (docs/workbench.md).

  server  serve(): the server loop (--host, --port, --open)
  app     the web server (werkzeug): the page and its JSON API
  jobs    each job in a process of its own, stopped by killing it
  request a job's input checked, and its puzzle read (never a file)
  work    what a job does: run a task, reply with pzc's SVG
  warm    what the jobs' fork server loads once, before forking them
  static/ the page: index.html, workbench.js, workbench.css (no resource
          from the internet: it works offline)
"""

from __future__ import annotations

DEFAULT_PORT = 8329
