"""A private link as a QR code for a printed slip (PAIRING.md §6): inline SVG made by segno, never a file.

Terms
-----
module
    One square of the code. The SVG's viewBox counts modules (one unit each, the quiet zone included), so the
    code is sized by the stylesheet alone (a slip prints it at a size a phone reads).
"""

from __future__ import annotations

import segno

# M: a slip folded or smudged in the hall still scans (15% of the code may be lost); a link of about a hundred
# characters stays a version 6 code, 41 modules a side.
ERROR_LEVEL = "m"
# The four modules of quiet zone the standard asks for: a cut line or a neighbouring code too close would hide it.
QUIET_ZONE = 4


def qr_svg(text: str, *, title: str) -> str:
    """The QR code of `text` as an <svg> element to put in a page (no XML declaration, no size: the viewBox)."""
    code = segno.make(text, error=ERROR_LEVEL, micro=False)
    return code.svg_inline(scale=1, border=QUIET_ZONE, omitsize=True, svgclass="qr", lineclass=None, title=title)
