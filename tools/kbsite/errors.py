"""The one error a rendering raises: a page names something the records do not have."""


class RenderError(Exception):
    pass
