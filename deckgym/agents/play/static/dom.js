// DOM helpers shared by the play page and the ruleset boards. Plain JavaScript, no build step.
//
// window.deckgymDom.el(tag, attrs, ...children) builds an element: attrs sets the class, the
// text, event listeners ("onclick": fn) and other attributes (skipped when null, undefined or
// false); children are nodes or text. key(zone, player, index) is a place key as
// envs/core/describe.py's place_key writes it ("zone/player/index", empty parts for null),
// spot(zone, player, index, cls) the attributes of a board spot that moves may concern, and
// cardPieces(prefix, kindClass, statLine) the card tile and card back of a board whose class
// names start with prefix- (boards/mow.js, boards/medarot_parts.js), and cardTexts(boardClass)
// the "i" button that opens a card's text, for the boards drawn in an element of boardClass
// (its styles: cards.css).
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

  // ------------------------------------------------ card text one tap away (a11y)
  let serial = 0;

  /**
   * The card texts of the boards drawn in an element of class `boardClass`: withText(node, id,
   * name, text, where) puts `node` (a card, or the board spot holding one) in a box with an "i"
   * button that opens `text` (the card's text, from the view) below it, or above it in the
   * board's lower half; right-aligned in its right half. One text is open at a time on a board.
   * The button and the text keep their clicks from the board, so reading a card never plays a
   * move; Escape closes it. `id` keeps it open across redraws. `where`: "inline" puts the button
   * after the node rather than on its corner; "inside" puts it on the node's corner within the
   * node, for a place inside a larger place (the button then belongs to the node's place, so a
   * click meant for the larger one never lands on it).
   */
  function cardTexts(boardClass) {
    /** Which card texts are open, by id ("place|card name"), kept across redraws. */
    const shown = {};

    function placeText(box, panel) {
      const root = box.closest(`.${boardClass}`) || box.parentElement;
      if (!root) return;
      const r = box.getBoundingClientRect();
      const b = root.getBoundingClientRect();
      panel.classList.toggle("card-text-up", r.top + r.height / 2 > b.top + b.height / 2);
      panel.classList.toggle("card-text-end", r.left + r.width / 2 > b.left + b.width / 2);
    }

    function setOpen(button, panel, open) {
      panel.hidden = !open;
      button.setAttribute("aria-expanded", String(open));
      if (open) shown[button.dataset.text] = true;
      else delete shown[button.dataset.text];
    }

    return function withText(node, id, name, text, where) {
      const inline = where === "inline";
      const inside = where === "inside";
      const panelId = `card-text-${++serial}`;
      const panel = el("div", { class: "card-text", id: panelId, hidden: true }, text);
      const button = el(
        "button",
        {
          type: "button",
          class: `card-info${inline ? " card-info-inline" : ""}${inside ? " card-info-inside" : ""}`,
          "aria-expanded": "false",
          "aria-controls": panelId,
          "aria-label": `Card text: ${name}`,
          title: `Card text: ${name}`,
          "data-text": id,
          "data-card-info": true,
        },
        "i",
      );
      if (inside) node.append(button);
      const box = el("div", { class: inline ? "card-box card-box-inline" : "card-box" }, node, inside ? null : button, panel);
      const toggle = (ev) => {
        ev.stopPropagation();
        const open = panel.hidden;
        if (open) {
          const root = box.closest(`.${boardClass}`);
          for (const other of root ? root.querySelectorAll(".card-info[aria-expanded='true']") : []) {
            const p = document.getElementById(other.getAttribute("aria-controls"));
            if (p) setOpen(other, p, false);
          }
          placeText(box, panel);
        }
        setOpen(button, panel, open);
      };
      button.addEventListener("click", toggle);
      panel.addEventListener("click", toggle);
      button.addEventListener("keydown", (ev) => {
        if (ev.key === "Escape" && !panel.hidden) toggle(ev);
      });
      if (shown[id]) {
        // opened once the board is on the page, where it can be placed
        requestAnimationFrame(() => {
          if (!box.isConnected || !shown[id]) return;
          placeText(box, panel);
          setOpen(button, panel, true);
        });
      }
      return box;
    };
  }

  window.deckgymDom = { el, key, spot, cardPieces, cardTexts };
})();
