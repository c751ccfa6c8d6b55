"""Loading a picture of a board: PNG or JPEG (or anything OpenCV decodes),
as a grey-level image with white paper and dark ink."""

from __future__ import annotations

from pathlib import Path

from ...runtime.errors import PzcError

# the first bytes of the picture files pzc reads
_MAGIC = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"BM", b"GIF8", b"RIFF")
PICTURE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".webp")


def looks_like_picture(path: str, head: bytes | None = None) -> bool:
    """Whether an INSTANCE argument names a picture: by its first bytes
    (``head``, or the file's own), else by its suffix."""
    if head is None:
        try:
            with open(path, "rb") as f:
                head = f.read(8)
        except OSError:
            return Path(path).suffix.lower() in PICTURE_SUFFIXES
    if isinstance(head, str):
        return False
    return any(head.startswith(m) for m in _MAGIC)


def load_picture(path: str, data: bytes | None = None):
    """The picture at ``path`` (or in ``data``) as a BGR array; transparent
    pixels count as white paper.  A file that is missing or is no picture is
    an error (exit 2)."""
    import cv2                  # here: OpenCV takes a while to load, and only pictures need it
    import numpy as np

    if data is None:
        try:
            data = Path(path).read_bytes()
        except OSError as e:
            raise PzcError(f"cannot read the picture: {e.strerror or e}", file=path) from None
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED)
    if image is None:
        raise PzcError("not a picture OpenCV can read (PNG or JPEG)", file=path)
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.shape[2] == 4:
        alpha = image[:, :, 3:4].astype(np.float32) / 255.0
        rgb = image[:, :, :3].astype(np.float32)
        return (rgb * alpha + 255.0 * (1.0 - alpha)).astype(np.uint8)
    return image


def ink_levels(image):
    """A grey picture where ink is what is dark in every colour channel (the
    brightest channel): black and grey stay, while tints (a highlighted room,
    a coloured cursor, an app's pale background) turn to paper."""
    return image.max(axis=2)
