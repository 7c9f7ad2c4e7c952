// DOM helpers shared by the play page and the ruleset boards. Plain JavaScript, no build step.
//
// window.deckgymDom.el(tag, attrs, ...children) builds an element: attrs sets the class, the
// text, event listeners ("onclick": fn) and other attributes (skipped when null, undefined or
// false); children are nodes or text. key(zone, player, index) is a place key as
// envs/core/describe.py's place_key writes it ("zone/player/index", empty parts for null),
// spot(zone, player, index, cls) the attributes of a board spot that moves may concern, and
// cardPieces(prefix, kindClass, statLine) the card tile and card back of a board whose class
// names start with prefix- (boards/mow.js, boards/medarot_parts.js).
"use strict";

(() => {
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) {
      if (c === undefined || c === null || c === false) continue;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  }

  const part = (x) => (x === null || x === undefined ? "" : x);
  const key = (zone, player, index) => `${zone}/${part(player)}/${part(index)}`;
  const spot = (zone, player, index, cls) => ({
    class: `place ${cls || ""}`.trim(),
    "data-place": key(zone, player, index),
  });

  /**
   * The card pieces of a board whose classes start with prefix- (mow-, mp-): cardTile(card,
   * attrs, ctx, extra), a face-up tile with the card's name, its numbers (extra.stats, else
   * statLine(card)), extra.note, its id when ctx.details, and its whole text and extra.tip as
   * the tooltip, classed by kindClass(card); and back(attrs, label), a card back that says
   * nothing of the card.
   */
  function cardPieces(prefix, kindClass, statLine) {
    function cardTile(card, attrs, ctx, extra) {
      const a = { ...(attrs || {}) };
      a.class = `${a.class || ""} card ${prefix}-card ${kindClass(card)}`.trim();
      a.title = [card.text || card.name, extra && extra.tip].filter(Boolean).join("\n");
      return el(
        "div",
        a,
        el("div", { class: `${prefix}-name` }, card.name),
        el("div", { class: `${prefix}-stats` }, extra && extra.stats ? extra.stats : statLine(card)),
        extra && extra.note ? el("div", { class: `${prefix}-note` }, extra.note) : null,
        ctx.details && card.id ? el("div", { class: `${prefix}-id` }, card.id) : null,
      );
    }

    function back(attrs, label) {
      const a = { ...(attrs || {}) };
      a.class = `${a.class || ""} card back ${prefix}-back`.trim();
      return el("div", a, label ? el("div", { class: `${prefix}-back-label` }, label) : null);
    }

    return { cardTile, back };
  }

  window.deckgymDom = { el, key, spot, cardPieces };
})();
