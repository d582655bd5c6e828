"use strict";
// The live table: the server draws the table and the caller's legal actions (GET .../panel, the
// same view as GET /api/v1/tables/{id}); this redraws it on every event of the table's SSE
// stream, counts deadlines down and posts each action as JSON with an Idempotency-Key.
(() => {
  const root = document.querySelector(".live");
  if (!root) return;
  const panel = document.getElementById("panel");
  const statusLine = document.getElementById("status");
  const connection = document.getElementById("conn");
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const types = JSON.parse(document.getElementById("event-types").textContent);
  const {tableUrl, ticketsUrl, panelUrl} = root.dataset;
  let lastId = Number(root.dataset.after) || 0;
  let busy = false;
  let again = false;

  const say = (text, bad = false) => { statusLine.textContent = text; statusLine.classList.toggle("bad", bad); };
  const connected = (text, live = false) => { connection.textContent = text; connection.classList.toggle("on", live); };

  async function redraw() {
    if (busy) { again = true; return; }
    busy = true;
    try {
      const answer = await fetch(panelUrl, {credentials: "same-origin", cache: "no-store"});
      const drawn = panel.querySelector(".panel");
      const unchanged = drawn && answer.headers.get("X-Table-Version") === drawn.dataset.version;
      if (answer.ok && !unchanged) {           // redraw only what changed: a form being filled stays
        const focused = panel.contains(document.activeElement);
        panel.innerHTML = await answer.text();
        if (focused) {
          const first = panel.querySelector(".controls button, .controls input");
          if (first) first.focus();
        }
        tick();
      }
    } finally {
      busy = false;
      if (again) { again = false; redraw(); }
    }
  }

  function idempotencyKey() {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return `web-${[...bytes].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
  }

  function bodyOf(form, submitter) {
    const body = {};
    for (const input of form.querySelectorAll("input[data-int]")) body[input.name] = Number(input.value);
    const {field, kind} = form.dataset;
    if (kind === "choice" || kind === "card") body[field] = submitter.value;
    if (kind === "choice" && submitter && submitter.hasAttribute("data-sized")) {   // pot limit: the chips too
      const amount = form.querySelector("input[name=amount]");
      if (!amount.reportValidity()) return null;
      body.amount = Number(amount.value);
    }
    if (kind === "cards") body[field] = [...form.querySelectorAll(`input[type=checkbox][name="${field}"]:checked`)].map((i) => i.value);
    for (const flag of form.querySelectorAll("input[type=checkbox][data-flag]")) body[flag.name] = flag.checked;
    if (kind === "amount") {
      const input = form.querySelector("input[type=number]");
      if (submitter && submitter.hasAttribute("data-null")) body[field] = null;
      else if (!input.reportValidity()) return null;
      else body[field] = Number(input.value);
    }
    return body;
  }

  async function act(form, submitter) {
    const body = bodyOf(form, submitter);
    if (body === null) return;
    const key = idempotencyKey();               // one per click: a retry after a lost answer reuses it
    form.querySelectorAll("button").forEach((button) => { button.disabled = true; });
    say("Sending…");
    let answer = null;
    for (let attempt = 0; attempt < 2 && answer === null; attempt++) {
      try {
        answer = await fetch(`${tableUrl}/${form.dataset.path}`, {
          method: "POST", credentials: "same-origin", body: JSON.stringify(body),
          headers: {"Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrf,
                    "Idempotency-Key": key}});
      } catch (error) {
        if (attempt === 1) say(`The server could not be reached: ${error.message}`, true);
      }
    }
    if (answer !== null) {
      const problem = answer.ok ? null : await answer.json().catch(() => null);
      if (answer.ok) say("Done.");
      else say(problem && problem.detail ? `Refused: ${problem.detail}` : `Refused (${answer.status}).`, true);
    }
    await redraw();
  }

  panel.addEventListener("submit", (event) => {
    event.preventDefault();
    act(event.target, event.submitter);
  });
  // A draw takes at most `max` cards: the rest cannot be ticked once that many are.
  panel.addEventListener("change", (event) => {
    const form = event.target.closest("form[data-kind=cards]");
    if (!form) return;
    const max = Number(form.querySelector("[data-max]").dataset.max || Infinity);
    const boxes = [...form.querySelectorAll(`input[type=checkbox][name="${form.dataset.field}"]`)];
    const picked = boxes.filter((box) => box.checked).length;
    boxes.forEach((box) => { box.disabled = !box.checked && picked >= max; });
  });

  function tick() {
    for (const element of panel.querySelectorAll("[data-deadline]")) {
      const left = Math.ceil((Date.parse(element.dataset.deadline) - Date.now()) / 1000);
      if (Number.isNaN(left)) continue;
      element.textContent = left > 0 ? `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")} left` : "time is up";
      element.classList.toggle("urgent", left <= 10);
    }
  }

  async function follow() {
    let source;
    try {
      const answer = await fetch(ticketsUrl, {method: "POST", credentials: "same-origin",
                                              headers: {Accept: "application/json", "X-CSRFToken": csrf}});
      if (!answer.ok) throw new Error(`ticket ${answer.status}`);
      const {stream_url: streamUrl} = await answer.json();
      source = new EventSource(`${streamUrl}&last_event_id=${lastId}`);
    } catch (error) {
      connected("offline, retrying");
      setTimeout(follow, 5000);
      return;
    }
    const seen = (event) => { lastId = Number(event.lastEventId) || lastId; redraw(); };
    source.onopen = () => { connected("live", true); redraw(); };
    source.onmessage = seen;
    for (const type of types) source.addEventListener(type, seen);
    source.onerror = () => {                 // the stream ended (it lasts minutes) or failed
      source.close();
      connected("reconnecting…");
      setTimeout(follow, 1000);
    };
  }

  setInterval(tick, 250);
  setInterval(redraw, 15000);                  // a safety net only: events redraw at once
  tick();
  follow();
})();
