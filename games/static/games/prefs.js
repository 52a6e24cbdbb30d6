// The table settings in the browser (accounts/display.py lists them: one attribute of
// <html> each, which prefs.css and the table's code read). prefs_boot.js applies the
// browser's copy before the first paint; this module, loaded by site.js on every page:
//  - keeps that copy of a registered player's settings (<html data-prefs="account">),
//    so the offline table, which the server does not draw for anyone, shows them too;
//  - on the table settings page, shows each change at once, and for a visitor or a
//    guest (data-prefs="browser") saves the form in this browser instead of sending it;
//  - fills the sign-up form's hidden field, so a guest's settings go to the new account.

import { gettext } from "./i18n.js";

const root = document.documentElement;
const KEY = "gin-prefs";

/** The attributes of <html> that are settings, as accounts/display.py's ATTRIBUTES. */
export const ATTRIBUTES = [
  "card-size", "card-style", "suits", "card-back", "theme", "motion", "sound", "volume",
  "hand-sort", "hand", "confirm-discard",
];

// A form field (a Profile field) -> its attribute, and for a checkbox its two values.
const FIELDS = {
  card_size: ["card-size"], card_style: ["card-style"], four_colour_deck: ["suits", "four", "two"],
  card_back: ["card-back"], theme: ["theme"], motion: ["motion"], sound_on: ["sound", "on", "off"],
  volume: ["volume"], hand_sort: ["hand-sort"], left_handed: ["hand", "left", "right"],
  confirm_discard: ["confirm-discard", "on", "off"],
};

/** The settings now on <html>: {attribute: value}. */
export function currentSettings() {
  return Object.fromEntries(ATTRIBUTES.map((name) => [name, root.getAttribute(`data-${name}`) ?? ""]));
}

/** Keep `settings` in this browser; false when it cannot (private mode, storage full). */
export function keep(settings) {
  try {
    localStorage.setItem(KEY, JSON.stringify(settings));
    localStorage.removeItem("gin-suits");
    return true;
  } catch {
    return false;
  }
}

/** The settings this browser keeps (for the sign-up form), as JSON, or "". */
export function kept() {
  try { return localStorage.getItem(KEY) ?? ""; } catch { return ""; }
}

/** Show the form's value of `field` on the page at once. */
function applyField(form, field) {
  const spec = FIELDS[field];
  const el = form.elements[field];
  if (!spec || !el) return;
  const [name, on, off] = spec;
  const value = on ? (el.checked ? on : off) : el.value;
  root.setAttribute(`data-${name}`, value);
  root.dispatchEvent(new CustomEvent("gin:prefs", { detail: { name, value } }));
}

/** Set the form's fields from the attributes on <html> (the browser's settings). */
function fillForm(form) {
  for (const [field, [name, on]] of Object.entries(FIELDS)) {
    const el = form.elements[field];
    const value = root.getAttribute(`data-${name}`);
    if (!el || value === null) continue;
    if (on) el.checked = value === on;
    else if (el instanceof RadioNodeList || el.type !== "checkbox") el.value = value;
  }
  form.querySelectorAll("output[data-volume-out]").forEach((out) => { out.textContent = form.elements.volume.value; });
}

function settingsPage(form) {
  const browser = root.dataset.prefs !== "account";
  if (browser) fillForm(form);
  form.addEventListener("input", (event) => {
    const field = event.target.name;
    if (field === "volume") form.querySelector("output[data-volume-out]").textContent = event.target.value;
    applyField(form, field);
  });
  form.addEventListener("change", (event) => applyField(form, event.target.name));
  if (!browser) return;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    for (const field of Object.keys(FIELDS)) applyField(form, field);
    const status = document.querySelector("[data-prefs-status]");
    status.hidden = false;
    status.textContent = keep(currentSettings())
      ? gettext("Your table settings are saved in this browser.")
      : gettext("This browser keeps nothing (private mode?): the settings last until you leave the page.");
  });
}

/** The settings page's sample hand, drawn as the table draws a hand (sorted as chosen),
 * with a card back. */
async function preview(box) {
  const [{ renderCard }, { layOutHand }] = await Promise.all([import("./cards.js"), import("./hands.js")]);
  const groups = [{ kind: "run", cards: ["7H", "8H", "9H"] }, { kind: "set", cards: ["KC", "KD", "KS"] }];
  const dead = ["2C", "5D", "TS", "QD"];
  const draw = () => {
    box.replaceChildren();
    layOutHand(box, groups, dead, (c) => renderCard(c));
    box.append(renderCard(null, { faceDown: true, label: gettext("a card back") }));
  };
  draw();
  root.addEventListener("gin:prefs", (event) => { if (event.detail.name === "hand-sort") draw(); });
}

if (root.dataset.prefs === "account") keep(currentSettings());
const form = document.querySelector("form[data-prefs-form]");
if (form) settingsPage(form);
const sample = document.querySelector("[data-prefs-preview]");
if (sample) preview(sample).catch(() => { /* the settings still work without it */ });
document.querySelectorAll("input[data-prefs-carry]").forEach((input) => { input.value = kept(); });
