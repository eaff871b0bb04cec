"""The report's Markdown as one self-contained HTML page (index.html).

Python-Markdown (Debian's python3-markdown) converts it, with its tables,
fenced-code and table-of-contents extensions; the contents (the paper
sections and their tables, headings of level 2 and 3) go under the title.
An image that stands alone in its paragraph, `![caption](NAME.svg)`,
becomes a figure with the plot's SVG text (from PLOTS, by file name)
inlined, so the page needs no other file.
"""
from __future__ import annotations

import xml.etree.ElementTree as etree

import markdown
from markdown.extensions import Extension
from markdown.extensions.toc import TocExtension
from markdown.treeprocessors import Treeprocessor

TITLE = "Hako: the five papers reproduced"
STYLE = ("body{font-family:sans-serif;max-width:75em;margin:auto;padding:1em}"
         "table{border-collapse:collapse;font-size:85%;margin:.5em 0}"
         "td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}"
         "td:first-child,th:first-child{text-align:left}"
         "pre{font-size:80%;overflow-x:auto;background:#f6f6f6;padding:.5em}"
         "nav.toc{font-size:90%;border:1px solid #ccc;padding:0 1em;margin:1em 0}"
         "figure{margin:1em 0}svg{max-width:100%;height:auto}")


class _Figures(Treeprocessor):
    """<p><img alt=CAPTION src=NAME.svg></p> -> <figure>SVG<figcaption>CAPTION</figcaption></figure>."""

    def __init__(self, md, plots: dict[str, str]):
        super().__init__(md)
        self.plots = plots

    def run(self, root):
        for p in root.iter("p"):
            if len(p) != 1 or p[0].tag != "img" or (p.text or "").strip() \
                    or (p[0].tail or "").strip():
                continue
            img = p[0]
            p.remove(img)
            p.tag = "figure"
            p.text = self.md.htmlStash.store(self.plots.get(img.get("src", ""), ""))
            etree.SubElement(p, "figcaption").text = img.get("alt", "")


class _FigureExtension(Extension):
    def __init__(self, plots: dict[str, str]):
        super().__init__()
        self.plots = plots

    def extendMarkdown(self, md):
        # After "inline" (which makes the <img>), before "prettify".
        md.treeprocessors.register(_Figures(md, self.plots), "hako_figures", 15)


def to_html(md: str, plots: dict[str, str]) -> str:
    """The whole page: the title, the table of contents, the rest of MD."""
    conv = markdown.Markdown(extensions=["tables", "fenced_code", TocExtension(toc_depth="2-3"),
                                         _FigureExtension(plots)])
    body = conv.convert(md)
    title_end = body.find("</h1>")
    split = title_end + len("</h1>") if title_end >= 0 else 0
    toc = f'<nav class="toc">\n<p><strong>Contents</strong></p>\n{conv.toc}</nav>'
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{TITLE}</title><style>{STYLE}</style></head><body>\n"
            + body[:split] + "\n" + toc + body[split:] + "\n</body></html>\n")
