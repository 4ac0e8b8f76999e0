"""How the learner writes an element as CSS (a script snippet the page runs): its tag and
classes, a class a build step made unique («booking-card___2e6pC») kept by its stable
part (``[class*="__booking-card___"]``), classes with long digit runs and those that
only say a state («active», «visible») dropped, as they change from one visit to the
next; and, for an element the page has once (a drop-down, a table), the CSS that finds
it alone: its own (an id, a name, its classes), else after its nearest ancestor's that
makes it unique, else a path counting places among siblings."""

from __future__ import annotations

__all__ = ["ALONE_JS", "TOKENS_JS"]

# Defines ``tokens(el)``: the element's tag, then its kept classes, each a CSS piece.
TOKENS_JS = r"""
  const states = new Set(['active', 'visible', 'transition', 'show', 'fade', 'in', 'open',
                          'focus', 'hover', 'selected', 'animating']);
  const hashed = /^(.+?__[A-Za-z0-9-]+___)[A-Za-z0-9_+\/-]+$/;
  const tokens = (el) => {
    const out = [el.tagName.toLowerCase()];
    for (const c of el.classList) {
      const m = c.match(hashed);
      if (m) out.push(`[class*="${m[1].replace(/^.*?(__)/, '$1')}"]`);
      else if (!states.has(c) && !/\d{3,}/.test(c)) out.push('.' + CSS.escape(c));
    }
    return out;
  };
"""

# Defines ``aloneCss(el, owns)``: the first of ``owns`` (the element's own CSS, the most
# telling first) that finds it alone in the page, else the last after its nearest
# ancestor's id or tokens that make it unique, else a path from the body counting places
# among siblings; null when none finds it alone. Needs ``TOKENS_JS`` before it.
ALONE_JS = r"""
  const stable = (c) => !/\d{3,}|___|^css-|^sc-|^jsx-/.test(c);  // not a hashed id
  const alone = (css, el) => {
    try {
      const found = document.querySelectorAll(css);
      return found.length === 1 && found[0] === el;
    } catch (e) { return false; }
  };
  const nth = (e) => {
    const same = e.parentElement
      ? [...e.parentElement.children].filter((s) => s.tagName === e.tagName) : [];
    return same.length > 1 ? `:nth-of-type(${same.indexOf(e) + 1})` : "";
  };
  const idOf = (el) => el.id && stable(el.id) ? el.tagName.toLowerCase() + "#" + CSS.escape(el.id)
    : "";
  const aloneCss = (el, owns) => {
    const mine = owns.filter(Boolean);
    const found = mine.find((own) => alone(own, el));
    if (found) return found;
    const own = mine.length ? mine[mine.length - 1] : tokens(el).join("");
    for (let up = el.parentElement; up && up !== document.documentElement; up = up.parentElement) {
      const css = `${idOf(up) || tokens(up).join("")} ${own}`;
      if (alone(css, el)) return css;
    }
    const steps = [];
    for (let e = el; e && e !== document.body; e = e.parentElement) {
      steps.unshift(tokens(e).join("") + nth(e));
    }
    const path = "body > " + steps.join(" > ");
    return alone(path, el) ? path : null;
  };
"""
