// vcfr view: a thin page over /api/meta and /api/node/<n> (solver/view/server.py). The location's
// hash holds the node (#node=12), so the browser's back button walks back up the tree.
"use strict";

const percent = (x) => (100 * x).toFixed(1) + "%";

function el(tag, attributes = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === "text") node.textContent = value;
    else if (key === "onclick") node.onclick = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

async function getJson(url) {
  const response = await fetch(url);
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || response.statusText);
  return body;
}

let files = [];

function bars(frequencies, colours) {
  return el("div", { class: "bars" }, frequencies.map((share, index) =>
    el("div", { style: `width:${100 * share}%;background:${colours[index]}` })));
}

function describe(frequencies, labels) {
  return frequencies.map((share, index) => `${labels[index]} ${percent(share)}`).join(", ");
}

function grid(view, labels, colours, file) {
  const table = el("table", { class: "grid", "data-file": file, "data-title": view.title });
  view.classes.forEach((row, r) => {
    const tr = el("tr");
    row.forEach((name, c) => {
      const frequencies = view.frequencies[r][c];
      const weight = view.range[r][c];
      const cell = el("td", {
        class: "cell",
        "data-class": name,
        "data-frequencies": JSON.stringify(frequencies),
        "data-range": weight,
        title: `${name}: ${describe(frequencies, labels)}; range weight ${weight.toFixed(3)}`,
        style: `opacity:${Math.max(0.15, weight)}`,
      }, [bars(frequencies, colours), el("span", { class: "label", text: name })]);
      tr.append(cell);
    });
    table.append(tr);
  });
  return el("div", {}, [el("h3", { text: view.title }), table]);
}

function bucketList(strategy, view, labels, colours, file) {
  const table = el("table", { class: "buckets", "data-file": file });
  table.append(el("tr", {}, [el("th", { text: "bucket" }), el("th", { text: "actions" }),
    el("th", { text: "share of hands here" }), el("th", { text: "frequencies" })]));
  for (const bucket of view.buckets) {
    const frequencies = strategy.buckets[bucket];
    table.append(el("tr", { "data-bucket": bucket, "data-frequencies": JSON.stringify(frequencies) }, [
      el("td", { text: bucket }),
      el("td", {}, [el("div", { class: "bar" }, [bars(frequencies, colours)])]),
      el("td", { text: percent(strategy.bucket_share[bucket]) }),
      el("td", { text: describe(frequencies, labels) }),
    ]));
  }
  return el("div", {}, [el("h3", { text: view.title }), table]);
}

function column(node, meta, file) {
  const heading = files.length > 1 ? `${file + 1}. ${meta.file}` : meta.file;
  const box = el("div", { class: "column" }, [el("h2", { text: heading })]);
  box.append(el("div", { text: `reach ${percent(node.reach)}` +
    (node.reach_error ? ` ± ${percent(node.reach_error)}` : " (exact)") }));
  const strategy = node.strategy;
  if (!strategy) return box;
  const labels = node.children.map((child) => child.label);
  const colours = node.children.map((child) => child.colour);
  box.append(el("div", { class: "legend" }, strategy.average.map((share, index) => el("span", {}, [
    el("span", { class: "swatch", style: `background:${colours[index]}` }), `${labels[index]} ${percent(share)}`]))));
  box.append(el("div", { text: `slot: ${strategy.slot_name}, ${strategy.buckets.length} buckets` }));
  const views = el("div", { class: "views" });
  for (const view of strategy.grids) views.append(grid(view, labels, colours, file));
  if (!strategy.grids.length) {
    for (const view of strategy.bucket_views) views.append(bucketList(strategy, view, labels, colours, file));
  }
  box.append(views);
  return box;
}

function seatName(seat) {
  if (files[0].players !== 2) return `seat ${seat}`;
  return seat === 0 ? "seat 0 (dealer)" : "seat 1 (big blind)";
}

function render(nodes) {
  const node = nodes[0];
  const path = document.getElementById("path");
  path.replaceChildren(...node.path.map((step, index) => el("a", {
    class: step.node === node.node ? "current" : "",
    "data-node": step.node,
    text: index === 0 ? "root" : step.label,
    onclick: () => go(step.node),
  })));
  const facts = [
    ["node", node.node], ["street", node.street_name], ["history", node.history || "(root)"],
    ["to act", node.player === null ? node.kind : seatName(node.player)],
    ["pot", node.pot], ["committed", node.committed.join(" / ")],
  ];
  if (node.stacks) facts.push(["stacks", node.stacks.join(" / ")]);
  document.getElementById("node").replaceChildren(...facts.map(([name, value]) =>
    el("span", { id: `fact-${name.replace(" ", "-")}` }, [el("b", { text: name + ": " }), String(value)])));
  document.getElementById("actions").replaceChildren(...node.children.map((child, index) => {
    const shares = nodes.map((each) => percent(each.reach > 0 ? each.children[index].reach / each.reach : 0));
    return el("button", {
      "data-node": child.node, "data-label": child.label, title: `to node ${child.node} (${child.kind})`,
      onclick: () => go(child.node),
    }, [el("span", { class: "swatch", style: `background:${child.colour}` }), `${child.label} · ${shares.join(" | ")}`]);
  }));
  document.getElementById("columns").replaceChildren(...nodes.map((each, file) => column(each, files[file], file)));
  document.body.dataset.node = node.node;
}

function go(node) {
  location.hash = `node=${node}`;
}

async function show() {
  const match = /node=(\d+)/.exec(location.hash);
  const error = document.getElementById("error");
  try {
    const answer = await getJson(`/api/node/${match ? match[1] : 0}`);
    error.hidden = true;
    render(answer.files);
  } catch (problem) {
    error.textContent = problem.message;
    error.hidden = false;
  }
}

async function start() {
  files = (await getJson("/api/meta")).files;
  document.getElementById("files").replaceChildren(...files.map((meta, file) => el("div", {
    text: `${files.length > 1 ? `${file + 1}. ` : ""}${meta.path}: ${meta.game}${meta.bets ? " " + meta.bets : ""}, ${meta.algorithm || "solver"}, ` +
      `${meta.iterations.toLocaleString()} iterations, ${meta.nodes.toLocaleString()} nodes; reach over ${meta.chance}`,
  })));
  window.addEventListener("hashchange", show);
  await show();
}

start();
