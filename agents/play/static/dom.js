// DOM helpers shared by the play page and the ruleset boards. Plain JavaScript, no build step.
//
// window.deckgymDom.el(tag, attrs, ...children) builds an element: attrs sets the class, the
// text, event listeners ("onclick": fn) and other attributes (skipped when null, undefined or
// false); children are nodes or text. key(zone, player, index) is a place key as
// envs/core/describe.py's place_key writes it ("zone/player/index", empty parts for null), and
// spot(zone, player, index, cls) the attributes of a board spot that moves may concern.
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

  window.deckgymDom = { el, key, spot };
})();
