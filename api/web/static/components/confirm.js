// A modal question with two answers, instead of window.confirm: the safe answer has the focus,
// so Enter alone (pressed to send a word a moment too late) never accepts the risky one. Escape,
// the safe button or a click outside answer no; only the risky button itself answers yes.

import { h } from "../dom.js";

let open = null;

export function dialogOpen() {
  return open !== null;
}

export function confirmDialog({ id = "confirm", title, text, yes, no, danger = true }) {
  if (open) open.close();
  return new Promise((resolve) => {
    const noButton = h("button", { class: "btn primary", id: `${id}-no`, type: "button", autofocus: true }, no);
    const yesButton = h("button", { class: `btn ${danger ? "danger" : "secondary"}`, id: `${id}-yes`, type: "button" }, yes);
    const dialog = h(
      "dialog",
      { class: "confirm", id, "aria-labelledby": `${id}-title`, "aria-describedby": `${id}-text` },
      h("h2", { id: `${id}-title` }, title),
      h("p", { id: `${id}-text` }, text),
      h("div", { class: "row-buttons" }, yesButton, noButton),
    );
    let answered = false;
    const answer = (value) => {
      if (answered) return;
      answered = true;
      open = null;
      if (dialog.open) dialog.close();
      dialog.remove();
      resolve(value);
    };
    yesButton.addEventListener("click", () => answer(true));
    noButton.addEventListener("click", () => answer(false));
    dialog.addEventListener("close", () => answer(false));
    dialog.addEventListener("click", (e) => {
      if (e.target === dialog) answer(false); // the backdrop
    });
    document.body.appendChild(dialog);
    open = { close: () => answer(false) };
    dialog.showModal();
    noButton.focus();
  });
}

// Closes an open question (as "no"), e.g. when the screen it belongs to goes away.
export function closeDialog() {
  if (open) open.close();
}
