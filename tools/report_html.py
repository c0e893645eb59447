"""Makes an nbconvert HTML report open correctly on any machine, online or not.

usage: report_html.py REPORT.html MATHJAX_JS [NOTEBOOK_DIR]

Debian's nbconvert points reports at file:///usr/share/javascript/mathjax (MathJax 2), which exists
only where Debian's libjs-mathjax is installed. This replaces that block with MathJax 3 (es5/tex-svg.js
from the org.webjars.npm:mathjax artifact Maven fetches; SVG output, so no font files are needed)
embedded in the page, configured for the notebooks' $...$ and $$...$$ like nbconvert's own settings.
Scripts nbconvert links as local files (Debian: require.js) are inlined.
Images a notebook links instead of embedding (<img src="../images/x.png">) are embedded as data: URIs.
Fails, naming it, if anything in the report still points at a local file.
"""
import base64
import mimetypes
import os
import re
import sys

MATHJAX_BLOCK = re.compile(r"<!-- Load mathjax -->.*?<!-- End of mathjax configuration -->", re.S)
CONFIG = """<script>
window.MathJax = {
  tex: {inlineMath: [['$', '$'], ['\\\\(', '\\\\)']], displayMath: [['$$', '$$'], ['\\\\[', '\\\\]']],
        processEscapes: true, processEnvironments: true, tags: 'ams'},
  svg: {fontCache: 'global'}
};
</script>"""


def embedded_mathjax(js_path):
    with open(js_path, encoding="utf-8") as f:
        js = f.read()
    js = js.replace("</script", "<\\/script").replace("<!--", "<\\!--")  # cannot end or confuse the inline script
    return ("<!-- MathJax 3.2.2 (Apache License 2.0), embedded: the report typesets its equations offline -->\n"
            + CONFIG + "\n<script>" + js + "</script>")


def embed_local_scripts(html):
    """<script src="file:///..."> (Debian's nbconvert links require.js that way): the file's content inline."""
    def inline(match):
        path = match.group(1)[len("file://"):]
        if not os.path.isfile(path):
            sys.exit(f"report_html: script {match.group(1)} not found")
        with open(path, encoding="utf-8") as f:
            js = f.read().replace("</script", "<\\/script").replace("<!--", "<\\!--")
        return f"<script>/* {os.path.basename(path)}, embedded */\n{js}</script>"
    return re.sub(r'<script[^>]*\ssrc="(file://[^"?]+)"[^>]*>\s*</script>', inline, html)


def embed_images(html, base_dir):
    def data_uri(match):
        src = match.group(2)
        if re.match(r"^(data:|https?:)", src):
            return match.group(0)
        path = os.path.normpath(os.path.join(base_dir, src.replace("file://", "")))
        if not os.path.isfile(path):
            sys.exit(f"report_html: image {src} not found at {path}")
        mime = mimetypes.guess_type(path)[0] or "application/octet-stream"
        with open(path, "rb") as f:
            return f'{match.group(1)}data:{mime};base64,{base64.b64encode(f.read()).decode()}"'
    return re.sub(r'(<img[^>]*?\ssrc=")([^"]+)"', data_uri, html)


def main():
    report, mathjax = sys.argv[1], sys.argv[2]
    base_dir = sys.argv[3] if len(sys.argv) > 3 else os.path.dirname(os.path.abspath(report))
    with open(report, encoding="utf-8") as f:
        html = f.read()
    html, n = MATHJAX_BLOCK.subn(lambda m: embedded_mathjax(mathjax), html, count=1)
    if n == 0 and "MathJax" not in html:
        sys.exit(f"report_html: no MathJax block in {report} (nbconvert template changed?)")
    html = embed_local_scripts(html)
    html = embed_images(html, base_dir)
    leftover = re.findall(r"""(?:src|href)=["'](file:[^"']*|/usr/share/[^"']*)""", html)
    if leftover:
        sys.exit(f"report_html: {report} still points at local files: {leftover[:3]}")
    with open(report, "w", encoding="utf-8") as f:
        f.write(html)


if __name__ == "__main__":
    main()
