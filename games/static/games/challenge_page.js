// A challenge's page while it waits for an answer (templates/api/challenge.html): ask
// every second, and go to the table once it is accepted; reload once it is answered
// otherwise (declined, cancelled, expired).
const challenge = document.querySelector("[data-challenge-status-url]");
if (challenge) {
  (function poll() {
    fetch(challenge.dataset.challengeStatusUrl, { credentials: "same-origin" })
      .then((r) => r.json())
      .then((data) => {
        if (data.match_id) { window.location = "/match/" + data.match_id + "/"; return; }
        if (data.status !== "created") { window.location.reload(); return; }
        setTimeout(poll, 1000);
      })
      .catch(() => setTimeout(poll, 2000));
  })();
}
