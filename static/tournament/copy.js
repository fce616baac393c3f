// A "Copy" button copies the text of the field its data-copy names (the club page's new API token, shown once).
document.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-copy]");
  if (!button) return;
  const field = document.getElementById(button.dataset.copy);
  field.select();
  const done = () => {
    const note = document.getElementById(button.dataset.copied);
    if (note) note.hidden = false;
  };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(field.value).then(done, () => { if (document.execCommand("copy")) done(); });
  } else if (document.execCommand("copy")) {
    done();
  }
});
