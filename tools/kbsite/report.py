"""Where a reader reports a problem with a record: the project's new-issue URL, named once per page in
a <meta> that docs/assets/report.js reads to add a prefilled "report a problem" link to each record.
Only when the build knows the repository (`ENGINEKB_REPO_URL`); without it, no link at all."""

from __future__ import annotations

from .templating import https_url

REPO_VARIABLE = "ENGINEKB_REPO_URL"


def issues_meta(repo_url: str | None) -> str:
    """The `<meta>` naming `repo_url`'s new-issue page (https only, quoted, escaped), or "" without a URL."""
    if not repo_url:
        return ""
    return f'<meta name="enginekb-issues" content="{https_url(repo_url, "issues", "new")}">'


def with_issues_meta(page_html: str, meta: str) -> str:
    """`page_html` with `meta` at the end of its head (unchanged when there is no meta or no head)."""
    if not meta or "</head>" not in page_html:
        return page_html
    return page_html.replace("</head>", meta + "</head>", 1)
