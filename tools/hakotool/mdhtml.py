"""The report's Markdown as one self-contained HTML page (index.html).

Only the subset report.py writes: headings, paragraphs, `**bold**` and
`code`, tables, bullet lists, fenced blocks, and image lines
`![caption](NAME.svg)`, whose SVG text (from PLOTS, by file name) is
inlined so the page needs no other file.
"""
from __future__ import annotations

import html
import re


def inline(text: str) -> str:
    text = html.escape(text, quote=False)
    text = re.sub(r"`([^`]+)`", r"<code>\1</code>", text)
    return re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", text)


def to_html(md: str, plots: dict[str, str]) -> str:
    body, lines, i = [], md.splitlines(), 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
        elif line.startswith("```"):
            j = lines.index("```", i + 1)
            body.append("<pre>" + html.escape("\n".join(lines[i + 1:j]), quote=False) + "</pre>")
            i = j + 1
        elif line.startswith("#"):
            level = len(line) - len(line.lstrip("#"))
            body.append(f"<h{level}>{inline(line[level:].strip())}</h{level}>")
            i += 1
        elif line.startswith("|"):
            rows = []
            while i < len(lines) and lines[i].startswith("|"):
                rows.append([c.strip() for c in lines[i].strip().strip("|").split("|")])
                i += 1
            head, rest = rows[0], rows[2:]
            body.append("<table><tr>" + "".join(f"<th>{inline(c)}</th>" for c in head) + "</tr>"
                        + "".join("<tr>" + "".join(f"<td>{inline(c)}</td>" for c in r) + "</tr>"
                                  for r in rest) + "</table>")
        elif line.startswith("* "):
            items = []
            while i < len(lines) and lines[i].startswith("* "):
                items.append(lines[i][2:])
                i += 1
            body.append("<ul>" + "".join(f"<li>{inline(t)}</li>" for t in items) + "</ul>")
        elif (m := re.match(r"!\[([^]]*)\]\(([^)]+)\)$", line)):
            svg = plots.get(m.group(2), "")
            body.append(f'<figure>{svg}<figcaption>{inline(m.group(1))}</figcaption></figure>')
            i += 1
        else:
            para = []
            while i < len(lines) and lines[i].strip() and not lines[i].startswith(
                    ("#", "|", "* ", "```", "![")):
                para.append(lines[i])
                i += 1
            body.append("<p>" + inline(" ".join(para)) + "</p>")
    style = ("body{font-family:sans-serif;max-width:75em;margin:auto;padding:1em}"
             "table{border-collapse:collapse;font-size:85%;margin:.5em 0}"
             "td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}"
             "td:first-child,th:first-child{text-align:left}"
             "pre{font-size:80%;overflow-x:auto;background:#f6f6f6;padding:.5em}"
             "figure{margin:1em 0}svg{max-width:100%;height:auto}")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<title>Hako: the five papers reproduced</title>"
            f"<style>{style}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")
