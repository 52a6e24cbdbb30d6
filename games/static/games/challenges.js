// "Challenges to you" in the lobby (templates/api/_incoming_challenges.html): the
// lobby socket (chat.js relays its frames as "gin:socket-message") says when a
// challenge to the player opens ({"type": "challenge", "challenge": {...}}) or closes
// ({"type": "challenge_closed", "id"}); the list follows without a reload. Names are
// put in the page with textContent.

import { format, gettext } from "./i18n.js";

const section = document.querySelector("[data-incoming-challenges]");
if (section) mount(section);

function mount(root) {
  function list() {
    let ul = root.querySelector("[data-challenge-list]");
    if (ul) return ul;
    const title = document.createElement("h2");
    title.id = "challenges-title";
    title.textContent = gettext("Challenges to you");
    ul = document.createElement("ul");
    ul.className = "match-list";
    ul.dataset.challengeList = "";
    root.replaceChildren(title, ul);
    return ul;
  }

  function answerForm(urlTemplate, id, label, style) {
    const form = document.createElement("form");
    form.method = "post";
    form.action = urlTemplate.replace("/0/", `/${encodeURIComponent(id)}/`);
    form.className = "inline-form";
    const csrf = document.createElement("input");
    csrf.type = "hidden";
    csrf.name = "csrfmiddlewaretoken";
    csrf.value = root.dataset.csrf;
    const button = document.createElement("button");
    button.type = "submit";
    button.className = `btn btn-small ${style}`;
    button.textContent = label;
    form.append(csrf, button);
    return form;
  }

  function row(challenge) {
    const li = document.createElement("li");
    li.className = "match-row";
    li.dataset.challenge = String(challenge.id);
    const who = document.createElement("span");
    who.className = "match-row__who";
    who.textContent = challenge.from;
    const meta = document.createElement("span");
    meta.className = "match-row__meta";
    meta.textContent = format(gettext("%(variant)s to %(score)s"), { variant: challenge.variant, score: challenge.target })
      + (challenge.rated ? ` · ${gettext("rated")}` : "");
    const actions = document.createElement("span");
    actions.className = "match-row__actions";
    actions.append(
      answerForm(root.dataset.acceptUrl, challenge.id, gettext("Accept"), "btn-primary"),
      answerForm(root.dataset.declineUrl, challenge.id, gettext("Decline"), "btn-ghost"),
    );
    li.append(who, actions, meta);
    return li;
  }

  function find(id) {
    return root.querySelector(`[data-challenge="${CSS.escape(String(id))}"]`);
  }

  document.addEventListener("gin:socket-message", (event) => {
    const data = event.detail;
    if (data?.type === "challenge" && data.challenge && !find(data.challenge.id)) {
      list().append(row(data.challenge));
      root.hidden = false;
    } else if (data?.type === "challenge_closed") {
      find(data.id)?.remove();
      if (!root.querySelector("[data-challenge]")) root.hidden = true;
    }
  });
}
