"""puzz.link's formats: URLs (puzzlink), layer codecs (codecs), pzprv3 files (pzprv3).

Genre-independent readers and writers; the spec language says which codecs
a genre's URL and file hold (formats/README.md has the table for the
built-in genres).
"""

from .puzzlink import FormatError, Url, looks_like_url, make_url, parse_url
from .codecs import (Codec, Cursor, FILE_CODECS, LineCursor, URL_CODECS, decode_file_layers,
                     decode_layers, encode_file_layers, encode_layers)
from .pzprv3 import looks_like_pzprv3, make_pzprv3, parse_pzprv3

__all__ = ["FormatError", "Url", "looks_like_url", "make_url", "parse_url", "Codec", "Cursor",
           "URL_CODECS", "FILE_CODECS", "LineCursor", "decode_layers", "encode_layers",
           "decode_file_layers", "encode_file_layers", "looks_like_pzprv3", "make_pzprv3",
           "parse_pzprv3"]
