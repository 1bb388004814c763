"""Player-facing text from the pure engines, translatable without importing Django.

An engine says `_("%(digit)s is correct.", digit=4)`: the result reads and compares as the
English text ("4 is correct."), and keeps its template and parameters so the presentation
layer (games.common.i18n.say) translates the template first and fills it in after. makemessages
finds these strings because the marker is called `_`.
"""


class Text(str):
    """English text that remembers its template and parameters (parameters may be Texts)."""

    template: str
    params: dict

    def __new__(cls, template: str, **params):
        self = super().__new__(cls, template % params if params else template)
        self.template, self.params = template, params
        return self

    def __str__(self):
        # str(error) of an exception raised with a Text gives the Text back, not a bare copy.
        return self


class Sentences(str):
    """Texts said one after the other: reads as the English sentences joined by spaces,
    and say() translates each."""

    texts: list
    separator: str

    def __new__(cls, texts, separator: str = " "):
        self = super().__new__(cls, separator.join(texts))
        self.texts, self.separator = list(texts), separator
        return self

    def __str__(self):
        return self


def _(template: str, **params) -> Text:
    return Text(template, **params)
