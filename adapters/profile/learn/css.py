"""How the learner writes an element as CSS (a script snippet the page runs): its tag and
classes, a class a build step made unique («booking-card___2e6pC») kept by its stable
part (``[class*="__booking-card___"]``), classes with long digit runs and those that
only say a state («active», «visible») dropped, as they change from one visit to the
next."""

from __future__ import annotations

__all__ = ["TOKENS_JS"]

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
