"""`{% pdf_notice %}`: on the pages with PDF buttons, what to install when this computer cannot make PDFs."""

from django import template

from documents import pdf

register = template.Library()


@register.inclusion_tag("documents/_pdf_notice.html")
def pdf_notice() -> dict:
    return {"pdf_available": pdf.pdf_available()}
