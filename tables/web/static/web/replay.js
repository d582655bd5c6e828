"use strict";
// The replay console: one step shown at a time (buttons, the timeline, ← → Home End), then the
// chain and the proof checked in this browser (verify.js).
(() => {
  const root = document.querySelector(".replay");
  if (!root) return;
  const steps = [...root.querySelectorAll(".step")];
  const jumps = [...root.querySelectorAll(".timeline button")];
  const where = document.getElementById("where");
  const buttons = Object.fromEntries([...root.querySelectorAll("[data-go]")].map((b) => [b.dataset.go, b]));
  let current = 0;

  function show(index) {
    current = Math.max(0, Math.min(steps.length - 1, index));
    steps.forEach((step, k) => { step.hidden = k !== current; });
    jumps.forEach((jump, k) => jump.setAttribute("aria-current", k === current ? "step" : "false"));
    const title = jumps[current] ? jumps[current].textContent.replace(/\s+/g, " ").trim() : "";
    where.textContent = `Step ${current + 1} of ${steps.length}: ${title}`;
    buttons.first.disabled = buttons.prev.disabled = current === 0;
    buttons.last.disabled = buttons.next.disabled = current === steps.length - 1;
    root.dataset.step = String(current);
    history.replaceState(null, "", `#step-${current + 1}`);
    if (jumps[current]) jumps[current].scrollIntoView({block: "nearest"});
  }

  const moves = {first: () => 0, prev: () => current - 1, next: () => current + 1, last: () => steps.length - 1};
  for (const [name, button] of Object.entries(buttons)) button.addEventListener("click", () => show(moves[name]()));
  jumps.forEach((jump, k) => jump.addEventListener("click", () => show(k)));
  const keys = {ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last"};
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.target.closest("input, select, textarea")) return;
    const move = keys[event.key];
    if (!move) return;
    event.preventDefault();
    show(moves[move]());
  });
  // A failed check's row leads to its step.
  root.addEventListener("click", (event) => {
    const row = event.target.closest(".check[data-step]");
    if (row) show(Number(row.dataset.step));
  });

  const fromHash = /^#step-(\d+)$/.exec(location.hash);
  show(fromHash ? Number(fromHash[1]) - 1 : 0);
  GutsVerify.replayChecks(root);
})();
