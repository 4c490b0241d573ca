// Picking a pattern marks the rows its read touches: the lists are computed
// by dyno (verify's plan and key-condition evaluation); nothing is matched here.
(() => {
  const data = JSON.parse(document.getElementById("dyno-data").textContent);
  const pick = document.getElementById("pick");
  const none = document.getElementById("nopick");
  let shown = null;
  const mark = (index, on) => {
    const pattern = data.patterns[index];
    for (const [rows, name] of [[pattern.reads, "read"], [pattern.returns, "ret"], [pattern.means, "mean"]]) {
      for (const id of rows) document.getElementById(id).classList.toggle(name, on);
    }
    document.getElementById("p" + index).hidden = !on;
  };
  const show = () => {
    if (shown !== null) mark(shown, false);
    shown = pick.value === "" ? null : Number(pick.value);
    none.hidden = shown !== null;
    document.body.classList.toggle("picking", shown !== null);
    if (shown === null) return;
    mark(shown, true);
    const pattern = data.patterns[shown];
    const first = pattern.returns[0] || pattern.reads[0] || pattern.grid;
    const target = first && document.getElementById(first);
    if (target) target.scrollIntoView({ block: "nearest" });
  };
  pick.addEventListener("change", show);
  show();
})();
