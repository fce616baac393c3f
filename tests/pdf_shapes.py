"""The squares drawn on each page of a PDF, for the tests that check how large a printout's QR codes are.

A QR code (documents/qr.py) is drawn on its white square, quiet zone included: the square's side is the code's
printed size (mm)."""

from __future__ import annotations

import pypdfium2 as pdfium

MM = 25.4 / 72


def square_sides(pdf: bytes, *, at_least: float = 8) -> list[list[float]]:
    """Each page's filled squares (paths) of a side of `at_least` mm or more: their sides in mm, rounded to 0.1."""
    document = pdfium.PdfDocument(pdf)
    try:
        return [_squares(document[index], at_least) for index in range(len(document))]
    finally:
        document.close()


def _squares(page, at_least: float) -> list[float]:
    sides = []
    try:
        for shape in page.get_objects(filter=(pdfium.raw.FPDF_PAGEOBJ_PATH,), max_depth=5):
            left, bottom, right, top = shape.get_bounds()
            width, height = (right - left) * MM, (top - bottom) * MM
            if abs(width - height) < 0.2 and width >= at_least:
                sides.append(round(width, 1))
    finally:
        page.close()
    return sides
