"""Content checks Telegram applies: text lengths, parse modes, inline keyboards."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

from tests.fakes.telegram.errors import ApiError, bad_request

__all__ = [
    "MAX_CAPTION",
    "MAX_TEXT",
    "check_caption",
    "check_reply_markup",
    "check_text",
    "parse_formatting",
    "utf16_len",
]

MAX_TEXT = 4096
MAX_CAPTION = 1024
MAX_INLINE_BUTTONS = 100
MAX_CALLBACK_DATA_BYTES = 64

_HTML_ENTITY = {
    "b": "bold", "strong": "bold", "i": "italic", "em": "italic", "u": "underline",
    "ins": "underline", "s": "strikethrough", "strike": "strikethrough", "del": "strikethrough",
    "code": "code", "pre": "pre", "a": "text_link", "tg-spoiler": "spoiler",
    "span": "spoiler", "blockquote": "blockquote", "tg-emoji": "custom_emoji",
}  # fmt: skip
_MDV2_RESERVED = set("_*[]()~`>#+-=|{}.!")
_MDV2_MARKERS = {"*": "Bold", "_": "Italic", "__": "Underline", "~": "Strikethrough",
                 "||": "Spoiler", "`": "Code"}  # fmt: skip


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _cant_parse(detail: str) -> ApiError:
    return bad_request(f"can't parse entities: {detail}")


class _HtmlToEntities(HTMLParser):
    def __init__(self, source: str) -> None:
        super().__init__(convert_charrefs=True)
        self.source_lines = source.splitlines(keepends=True)
        self.text = ""
        self.entities: list[dict[str, Any]] = []
        self.stack: list[tuple[str, int, dict[str, str | None]]] = []

    def _byte_offset(self) -> int:
        line, col = self.getpos()
        prefix = "".join(self.source_lines[: line - 1]) + self.source_lines[line - 1][:col]
        return len(prefix.encode())

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in _HTML_ENTITY:
            raise _cant_parse(f'Unsupported start tag "{tag}" at byte offset {self._byte_offset()}')
        self.stack.append((tag, utf16_len(self.text), dict(attrs)))

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1][0] != tag:
            raise _cant_parse(f"Unexpected end tag at byte offset {self._byte_offset()}")
        _, start, attrs = self.stack.pop()
        length = utf16_len(self.text) - start
        if length == 0:
            return
        entity: dict[str, Any] = {"type": _HTML_ENTITY[tag], "offset": start, "length": length}
        if tag == "a":
            entity["url"] = attrs.get("href") or ""
        self.entities.append(entity)

    def handle_data(self, data: str) -> None:
        self.text += data


def _parse_html(text: str) -> tuple[str, list[dict[str, Any]]]:
    parser = _HtmlToEntities(text)
    parser.feed(text)
    parser.close()
    if parser.stack:
        raise _cant_parse(f'Can\'t find end tag corresponding to start tag "{parser.stack[-1][0]}"')
    return parser.text, sorted(parser.entities, key=lambda e: (e["offset"], -e["length"]))


def _parse_markdown_v2(text: str) -> str:
    """Strip MarkdownV2 markup; raise on unescaped reserved characters or unclosed entities."""
    out: list[str] = []
    open_at: dict[str, int] = {}
    i = 0
    while i < len(text):
        ch = text[i]
        offset = len(text[:i].encode())
        pair = text[i : i + 2]
        if ch == "\\" and i + 1 < len(text):
            out.append(text[i + 1])
            i += 2
            continue
        marker = pair if pair in ("__", "||") else ch
        if marker in _MDV2_MARKERS and ("`" not in open_at or marker == "`"):
            if marker in open_at:
                del open_at[marker]
            else:
                open_at[marker] = offset
            i += len(marker)
            continue
        quote = ch == ">" and (i == 0 or text[i - 1] == "\n")
        if "`" not in open_at and ch in _MDV2_RESERVED and ch not in "[]()" and not quote:
            raise _cant_parse(
                f"Character '{ch}' is reserved and must be escaped with the preceding '\\'"
            )
        out.append(ch)
        i += 1
    if open_at:
        marker, offset = min(open_at.items(), key=lambda kv: kv[1])
        name = _MDV2_MARKERS[marker]
        raise _cant_parse(f"Can't find end of {name} entity at byte offset {offset}")
    plain = "".join(out)
    return re.sub(r"\[([^\]]*)\]\(([^)]*)\)", r"\1", plain)


def _parse_markdown(text: str) -> str:
    out: list[str] = []
    open_marker: tuple[str, int] | None = None
    for i, ch in enumerate(text):
        if ch in "*_`":
            if open_marker is None:
                open_marker = (ch, len(text[:i].encode()))
                continue
            if open_marker[0] == ch:
                open_marker = None
                continue
        out.append(ch)
    if open_marker is not None:
        raise _cant_parse(f"Can't find end of the entity starting at byte offset {open_marker[1]}")
    return "".join(out)


def parse_formatting(
    text: str, parse_mode: str | None, entities: list[dict[str, Any]] | None
) -> tuple[str, list[dict[str, Any]]]:
    """Return the plain text and its entities, as Telegram stores a formatted message."""
    mode = (parse_mode or "").lower()
    if mode == "html":
        return _parse_html(text)
    if mode == "markdownv2":
        return _parse_markdown_v2(text), []
    if mode == "markdown":
        return _parse_markdown(text), []
    if mode:
        raise bad_request("unsupported parse_mode")
    return text, list(entities or [])


def check_text(text: str) -> None:
    if not text.strip():
        raise bad_request("message text is empty")
    if utf16_len(text) > MAX_TEXT:
        raise bad_request("message is too long")


def check_caption(caption: str) -> None:
    if utf16_len(caption) > MAX_CAPTION:
        raise bad_request("message caption is too long")


def check_reply_markup(markup: Any) -> None:
    """Validate an inline keyboard; other markups (reply keyboards, removal) pass through."""
    if markup is None:
        return
    if not isinstance(markup, dict):
        raise bad_request("can't parse reply keyboard markup JSON object")
    rows = markup.get("inline_keyboard")
    if rows is None:
        return
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise bad_request(
            'field "inline_keyboard" of the InlineKeyboardMarkup should be an Array of Arrays'
        )
    buttons = [button for row in rows for button in row]
    if len(buttons) > MAX_INLINE_BUTTONS:
        raise bad_request("reply markup is too long")
    for button in buttons:
        if not isinstance(button, dict) or not str(button.get("text", "")).strip():
            raise bad_request(
                "BUTTON_TEXT_INVALID"
                if isinstance(button, dict)
                else "can't parse inline keyboard button"
            )
        if "callback_data" in button:
            size = len(str(button["callback_data"]).encode())
            if size == 0 or size > MAX_CALLBACK_DATA_BYTES:
                raise bad_request("BUTTON_DATA_INVALID")
        elif "url" in button:
            if not re.match(r"^(https?|tg)://\S+$", str(button["url"])):
                raise bad_request("BUTTON_URL_INVALID")
        elif not any(k in button for k in _OTHER_BUTTON_KINDS):
            raise bad_request("text buttons are unallowed in the inline keyboard")


_OTHER_BUTTON_KINDS = (
    "web_app", "login_url", "switch_inline_query", "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat", "copy_text", "callback_game", "pay",
)  # fmt: skip
