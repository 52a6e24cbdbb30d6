// Drag and drop on a card table, the live one (table/input.js) and the offline one
// (offline/app.js): a card of the hand onto the discard pile, or the top of a pile
// onto the hand. Pointer events, so mouse and touch alike; a click that ends a drag
// is swallowed.

/** Make `root` (the table) draggable; `dropCard(card)` and `dropPile(source)` act. */
export function enableDrag(root, { dropCard, dropPile }) {
  let drag = null;
  let suppressClick = false;
  root.addEventListener("click", (event) => {
    if (!suppressClick) return;
    suppressClick = false;
    event.preventDefault();
    event.stopImmediatePropagation();
  }, { capture: true });
  root.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    const src = event.target.closest("[data-stock][data-active='true'], [data-discard][data-active='true'], [data-my-hand] .card[data-drag='card']");
    if (!src) return;
    drag = { src, x: event.clientX, y: event.clientY, id: event.pointerId, ghost: null };
  });
  window.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    if (!drag.ghost) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 8) return;
      const face = drag.src.matches(".card") ? drag.src : drag.src.querySelector(".pile__slot .card:last-child");
      if (!face) { drag = null; return; }
      drag.ghost = face.cloneNode(true);
      drag.ghost.classList.add("drag-ghost");
      drag.ghost.removeAttribute("id");
      drag.ghost.setAttribute("aria-hidden", "true");
      document.body.append(drag.ghost);
      root.classList.add("is-dragging");
      const target = root.querySelector(drag.src.matches(".card") ? "[data-discard]" : "[data-my-hand]");
      target.dataset.drop = "true";
    }
    drag.ghost.style.left = `${event.clientX}px`;
    drag.ghost.style.top = `${event.clientY}px`;
  });
  window.addEventListener("pointerup", (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    const d = drag;
    drag = null;
    if (!d.ghost) return;
    d.ghost.remove();
    root.classList.remove("is-dragging");
    root.querySelectorAll("[data-drop]").forEach((el) => delete el.dataset.drop);
    suppressClick = true;
    setTimeout(() => { suppressClick = false; }, 0);
    const under = document.elementFromPoint(event.clientX, event.clientY);
    if (d.src.matches(".card")) {
      if (under?.closest("[data-discard]")) dropCard(d.src.dataset.card);
    } else if (under?.closest("[data-my-hand], .seat--me")) {
      dropPile(d.src.matches("[data-stock]") ? "stock" : "discard");
    }
  });
  window.addEventListener("pointercancel", () => {
    drag?.ghost?.remove();
    drag = null;
    root.classList.remove("is-dragging");
  });
}
