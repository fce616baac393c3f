"""`{% pdf_notice %}`: on the pages with PDF buttons, what to install when this computer cannot make PDFs.
`{% qr_notice %}`: on the pages that print table links' QR codes, that phones cannot scan them when the server
serves this computer only."""

from django import template

from documents import pdf
from tournament.addresses import printed_for_this_computer_only

register = template.Library()


@register.inclusion_tag("documents/_pdf_notice.html")
def pdf_notice() -> dict:
    return {"pdf_available": pdf.pdf_available()}


@register.inclusion_tag("documents/_qr_notice.html")
def qr_notice() -> dict:
    return {"address": printed_for_this_computer_only()}
