/* page.js - the player of `cured animate --html`: reads the stories the
 * model's trace made (the JSON in #cured-data, written by src/viz/viz_html.c)
 * and draws one frame at a time as inline SVG, with the controls, the
 * caption, the counter cards, the CUDA source and the maths. No network:
 * everything it shows is in this page. Embedded into cured at build time. */
"use strict";
(function () {
  var data = JSON.parse(document.getElementById("cured-data").textContent);
  var stories = data.stories;
  var STEP_MS = 1300;                 /* one step at 1x, as the lesson's page */
  var CELL = 20, LEFT = 50, BAR_H = 30, GAP = 30, TOP = 24;
  /* a warp's 32 cells on one line, or on two of 16 on a narrow screen */
  var narrow = window.matchMedia ? window.matchMedia("(max-width: 600px)") : null;
  function perLine() { return narrow && narrow.matches ? 16 : 32; }
  var SVGNS = document.getElementById("stage").namespaceURI;
  var reduce = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  var $ = function (id) { return document.getElementById(id); };

  /* values and known flags of every frame, from the deltas */
  stories.forEach(function (s) {
    var n = s.cells.length, v = new Array(n).fill(0), known = new Array(n).fill(false);
    s.vals = []; s.known = [];
    s.hasTree = s.frames.some(function (f) { return f.k[6] === 1; });
    s.frames.forEach(function (f) {
      f.d.forEach(function (p) { v[p[0]] = p[1]; known[p[0]] = true; });
      s.vals.push(v.slice()); s.known.push(known.slice());
    });
  });

  var state = { s: 0, k: 0, playing: false, timer: null, speed: 1, seen: false };

  function el(tag, attrs, parent) {
    var e = document.createElementNS(SVGNS, tag);
    for (var a in attrs) e.setAttribute(a, attrs[a]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function fmt(s, v) {
    if (s.valueKind !== "f" || (Number.isInteger(v) && Math.abs(v) < 1e9)) return String(v);
    return Number(v.toPrecision(4)).toString();
  }
  function pct(x) { return (100 * x).toFixed(1) + " %"; }

  /* ------------------------------------------------------------ picker */
  var groups = { lesson: "The lesson's four versions", catalogue: "The rest of the catalogue",
                 yours: "Your kernel" };
  function buildPicker() {
    var seg = $("lesson-versions"), sel = $("version");
    var made = {};
    stories.forEach(function (s, i) {
      if (s.group === "lesson") {
        var b = document.createElement("button");
        b.type = "button"; b.textContent = s.label; b.dataset.story = String(i);
        b.addEventListener("click", function () { choose(i); });
        seg.appendChild(b);
      }
      if (!made[s.group]) {
        made[s.group] = document.createElement("optgroup");
        made[s.group].label = groups[s.group] || s.group;
        sel.appendChild(made[s.group]);
      }
      var o = document.createElement("option");
      o.value = String(i); o.textContent = s.label;
      made[s.group].appendChild(o);
    });
    if (!seg.children.length) seg.hidden = true;
    sel.addEventListener("change", function () { choose(Number(sel.value)); });
  }

  function choose(i) {
    stop();
    state.s = i; state.k = 0;
    var s = stories[i];
    $("version").value = String(i);
    Array.prototype.forEach.call($("lesson-versions").children, function (b) {
      b.setAttribute("aria-pressed", b.dataset.story === String(i) ? "true" : "false");
    });
    $("summary").innerHTML = "";
    var t = document.createElement("span"); t.textContent = s.title + ". ";
    $("summary").appendChild(t);
    if (s.code) {
      var c = document.createElement("code"); c.textContent = s.code;
      $("summary").appendChild(c);
    }
    $("scrub").max = String(s.frames.length - 1);
    buildStage(s);
    buildSource(s);
    draw();
  }

  /* ------------------------------------------------------------- stage */
  var stage = { cells: [], arrows: null };
  function rowTop(r) { return TOP + r * (BAR_H + GAP); }

  function buildStage(s) {
    var svg = $("stage"), per = perLine();
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    var lines = 0;
    s.rows.forEach(function (row) { lines += Math.max(1, Math.ceil(row.count / per)); });
    var h = TOP + lines * (BAR_H + GAP) + 4;
    var w = LEFT + per * CELL + 6;
    svg.setAttribute("viewBox", "0 0 " + w + " " + h);
    var defs = el("defs", {}, svg);
    var pat = el("pattern", { id: "hatch", width: 4, height: 4, patternUnits: "userSpaceOnUse",
                              patternTransform: "rotate(45)" }, defs);
    el("line", { x1: 0, y1: 0, x2: 0, y2: 4, "class": "hatchline" }, pat);
    ["k0", "k1", "k2"].forEach(function (k) {
      var m = el("marker", { id: "head-" + k, viewBox: "0 0 6 6", refX: 5, refY: 3,
                             markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse" }, defs);
      el("path", { d: "M0,0 L6,3 L0,6 z", "class": "head " + k }, m);
    });
    s.cellCol = []; s.cellRow = [];
    stage.cells = [];
    var line = 0;
    s.rows.forEach(function (row) {
      for (var j = 0; j < row.count; j++) {
        if (j % per === 0) {
          var lab = el("text", { x: 2, y: rowTop(line + j / per) + BAR_H / 2 + 3, "class": "rowlabel" }, svg);
          lab.textContent = j === 0 ? row.label : "+" + j;
        }
        var c = row.first + j, r = line + Math.floor(j / per), y = rowTop(r);
        s.cellCol[c] = j % per; s.cellRow[c] = r;
        var x = LEFT + (j % per) * CELL;
        var g = el("g", { "data-cell": c }, svg);
        var box = el("rect", { x: x + 0.5, y: y, width: CELL - 1, height: BAR_H, "class": "cellbox" }, g);
        var bar = el("rect", { x: x + 2, y: y + BAR_H, width: CELL - 4, height: 0, "class": "bar" }, g);
        var title = el("title", {}, bar);
        var val = el("text", { x: x + CELL / 2, y: y - 2, "class": "val" }, g);
        stage.cells.push({ box: box, bar: bar, title: title, val: val, x: x, y: y });
      }
      line += Math.max(1, Math.ceil(row.count / per));
    });
    stage.arrows = el("g", { "class": "arrows" }, svg);
    var dense = s.cells.length > 128;
    stage.values = !dense;
  }

  function arrowPath(s, a) {
    var from = stage.cells[a[0]], to = stage.cells[a[1]];
    var x1 = from.x + CELL / 2, x2 = to.x + CELL / 2;
    if (s.cellRow[a[0]] === s.cellRow[a[1]]) {
      var y = from.y - 1, lift = Math.min(GAP - 6, 6 + Math.abs(x1 - x2) / 5);
      return "M" + x1 + "," + y + " Q" + (x1 + x2) / 2 + "," + (y - lift) + " " + x2 + "," + (y - 1);
    }
    if (from.y > to.y) return "M" + x1 + "," + (from.y - 1) + " L" + x2 + "," + (to.y + BAR_H + 2);
    return "M" + x1 + "," + (from.y + BAR_H + 1) + " L" + x2 + "," + (to.y - 9);
  }

  function drawStage(s, k) {
    var f = s.frames[k], vals = s.vals[k], known = s.known[k];
    var max = 0;
    for (var c = 0; c < vals.length; c++) if (known[c]) max = Math.max(max, Math.abs(vals[c]));
    for (c = 0; c < stage.cells.length; c++) {
      var cell = stage.cells[c], role = f.r.charAt(c);
      cell.box.setAttribute("class", "cellbox" + (role === "M" ? " hatched" : ""));
      var h = known[c] && max > 0 ? Math.max(1.5, BAR_H * Math.abs(vals[c]) / max) : 0;
      cell.bar.setAttribute("y", cell.y + BAR_H - h);
      cell.bar.setAttribute("height", h);
      cell.bar.setAttribute("class", "bar " + role);
      cell.title.textContent = s.cells[c] + (known[c] ? " = " + fmt(s, vals[c]) : " (no value yet)");
      var show = stage.values && known[c] && role === "D";
      cell.val.textContent = show ? fmt(s, vals[c]) : "";
      cell.val.setAttribute("class", "val D");
    }
    var g = stage.arrows;
    while (g.firstChild) g.removeChild(g.firstChild);
    f.a.forEach(function (a) {
      var k2 = "k" + a[2];
      el("path", { d: arrowPath(s, a), "class": "arrow " + k2, "marker-end": "url(#head-" + k2 + ")" }, g);
    });
    /* the cells receiving now, in words */
    var dst = [];
    for (c = 0; c < f.r.length && dst.length < 3; c++)
      if (f.r.charAt(c) === "D" && known[c]) {
        var was = k > 0 && s.known[k - 1][c] ? " (was " + fmt(s, s.vals[k - 1][c]) + ")" : "";
        dst.push(s.cells[c] + " = " + fmt(s, vals[c]) + was);
      }
    var more = 0;
    for (c = 0; c < f.r.length; c++) if (f.r.charAt(c) === "D") more++;
    $("note").textContent = dst.join("; ") + (more > dst.length ? "; ... (" + more + " cells)" : "");
    $("stage").setAttribute("aria-label", s.label + ", step " + k + " of " + (s.frames.length - 1) +
                            ": " + f.c);
  }

  /* ------------------------------------------------------------- cards */
  function drawCards(s, k) {
    var K = s.frames[k].k;
    var set = function (key, text, bad) {
      var v = document.querySelector('[data-k="' + key + '"]');
      v.textContent = text; v.classList.toggle("bad", !!bad);
    };
    set("accesses", String(K[0]));
    set("syncs", String(K[1]));
    set("shuffles", String(K[2]));
    set("worst", K[7] ? K[7] + "-way" : "-", K[7] > 1);
    set("first", K[8] ? K[9] + " of " + K[10] : (s.hasTree ? "-" : "none"));
    var step = "-";
    if (k > 0) {
      if (K[6] && K[3] > 1) step = K[3] + "-way conflict";
      else if (K[5] > 0) step = K[5] + " of " + K[4] + " warp" + (K[4] === 1 ? "" : "s") + " diverge" + (K[5] === 1 ? "s" : "");
      else step = "clean";
    }
    set("step", step, K[6] && K[3] > 1);
  }

  /* ------------------------------------------------------------ source */
  function buildSource(s) {
    var box = $("source");
    box.innerHTML = "";
    if (!s.sources.length) {
      var p = document.createElement("p"); p.className = "note";
      p.textContent = "No source text: the PTX names no file cured can show.";
      box.appendChild(p);
      return;
    }
    s.sources.forEach(function (src, i) {
      var wrap = document.createElement("div"); wrap.className = "srcfile";
      var name = document.createElement("p"); name.className = "name mono"; name.textContent = src.name;
      var pre = document.createElement("pre"); pre.className = "code"; pre.id = "src-" + i;
      src.lines.forEach(function (text, j) {
        var ln = document.createElement("span"); ln.className = "ln";
        ln.dataset.line = String(src.first + j);
        var no = document.createElement("span"); no.className = "no"; no.textContent = String(src.first + j);
        ln.appendChild(no); ln.appendChild(document.createTextNode(text));
        pre.appendChild(ln);
      });
      wrap.appendChild(name); wrap.appendChild(pre); box.appendChild(wrap);
    });
  }

  function drawSource(s, k) {
    var f = s.frames[k];
    s.sources.forEach(function (src, i) {
      var pre = $("src-" + i), first = null;
      Array.prototype.forEach.call(pre.children, function (ln) {
        var on = f.l.some(function (l) { return l[0] === i && String(l[1]) === ln.dataset.line; });
        ln.classList.toggle("hl", on);
        if (on && !first) first = ln;
      });
      /* keep the line in view inside its box, never scrolling the page */
      if (first) {
        var top = first.offsetTop - pre.offsetTop;
        if (top < pre.scrollTop || top > pre.scrollTop + pre.clientHeight - 24)
          pre.scrollTop = Math.max(0, top - pre.clientHeight / 3);
      }
    });
  }

  /* ------------------------------------------------------------- maths */
  function gcd(a, b) { a = Math.abs(a); b = Math.abs(b); while (b) { var t = a % b; a = b; b = t; } return a; }

  function drawMaths(s, k) {
    var f = s.frames[k], M = f.m, F = s.formula, n = s.n, T = s.threads;
    var last = k === s.frames.length - 1;
    var rows = [];
    rows.push(["values summed", "n = " + n, ""]);
    rows.push(["depth", String(M[4]) + (last ? "" : " so far"),
               "log2 n = " + F.depth]);
    rows.push(["additions", String(M[3]) + (last ? "" : " so far"), "n - 1 = " + F.additions]);
    if (M[0] > 0)
      rows.push(["busy, this step",
                 M[0] + " of " + T + " threads: " + pct(M[0] / T),
                 "level " + M[1] + ": n / 2^" + M[1] + " of " + T + ": " + pct(Math.max(1, Math.floor(n / Math.pow(2, M[1]))) / T)]);
    var busy = M[2] ? M[3] / (M[2] * T) : 0;
    rows.push(["busy, overall", M[2] ? pct(busy) + " over " + M[2] + " level" + (M[2] === 1 ? "" : "s") : "-",
               "(1 - 1/n) / log2 n = " + pct(F.busy)]);
    var t = document.createElement("table"); t.className = "maths";
    var head = t.insertRow();
    ["", "measured by the model", "formula"].forEach(function (h) {
      var th = document.createElement("th"); th.textContent = h; head.appendChild(th);
    });
    rows.forEach(function (r) {
      var tr = t.insertRow();
      r.forEach(function (x, i) { var td = tr.insertCell(); td.textContent = x; if (i) td.className = "num"; });
    });
    var box = $("maths"); box.innerHTML = ""; box.appendChild(t);
    /* the bank-conflict condition */
    var p = document.createElement("p"); p.className = "cond";
    var a = f.m[6], d = f.m[5];
    var txt = "Bank conflicts: word w is in bank w mod 32, so lanes t and t' writing x[a*t] collide when ";
    p.appendChild(document.createTextNode(txt));
    var fm = document.createElement("span"); fm.className = "f"; fm.textContent = "a(t - t') = 0 (mod 32)";
    p.appendChild(fm);
    p.appendChild(document.createTextNode("; the strided index has a = 2s: "));
    var fm2 = document.createElement("span"); fm2.className = "f"; fm2.textContent = "2s(t - t') = 0 (mod 32)";
    p.appendChild(fm2);
    p.appendChild(document.createTextNode(". "));
    if (f.k[6] && a) {
      var period = 32 / gcd(a, 32);
      var m = document.createElement("span");
      m.textContent = "This step writes x[" + (a === 1 ? "" : a + "*") + "tid]" +
        (d ? " (stride " + Math.abs(d) + ")" : "") + ": lanes " + period + " apart share a bank" +
        (period >= 32 ? " only with themselves" : "") + "; measured: " + f.k[3] + "-way" +
        (f.x ? " (" + f.x + ")" : "") + ".";
      if (f.k[3] > 1) m.className = "hit";
      p.appendChild(m);
    } else {
      p.appendChild(document.createTextNode(k === 0 ? "The steps will show it." :
        "No tree step writes shared memory here."));
    }
    box.appendChild(p);
  }

  /* ----------------------------------------------------------- playing */
  function draw() {
    var s = stories[state.s], k = state.k, N = s.frames.length - 1;
    drawStage(s, k);
    drawCards(s, k);
    drawSource(s, k);
    drawMaths(s, k);
    $("caption").textContent = "Step " + k + " of " + N + ": " + s.frames[k].c;
    $("step-label").textContent = "step " + k + "/" + N;
    $("scrub").value = String(k);
    $("scrub").setAttribute("aria-valuetext", "step " + k + " of " + N);
    var play = $("btn-play");
    play.textContent = state.playing ? "Pause" : "Play";
    play.setAttribute("aria-label", state.playing ? "pause" : "play");
    document.body.dataset.frame = String(k);
    document.body.dataset.frames = String(N);
    document.body.dataset.playing = state.playing ? "true" : "false";
    document.body.dataset.story = s.id;
  }
  function go(k) {
    var N = stories[state.s].frames.length - 1;
    state.k = Math.max(0, Math.min(N, k));
    draw();
  }
  function tick() {
    var N = stories[state.s].frames.length - 1;
    if (state.k >= N) { pause(); return; }
    go(state.k + 1);
    if (state.k >= N) { pause(); return; }
    state.timer = setTimeout(tick, STEP_MS / state.speed);
  }
  function play() {
    if (state.playing) return;
    if (state.k >= stories[state.s].frames.length - 1) state.k = 0;
    state.playing = true;
    draw();
    state.timer = setTimeout(tick, STEP_MS / state.speed);
  }
  function stop() {
    if (state.timer) clearTimeout(state.timer);
    state.timer = null;
    state.playing = false;
  }
  function pause() { stop(); draw(); }
  function toggle() { if (state.playing) pause(); else play(); }

  function bind() {
    $("btn-reset").addEventListener("click", function () { pause(); go(0); });
    $("btn-back").addEventListener("click", function () { pause(); go(state.k - 1); });
    $("btn-play").addEventListener("click", toggle);
    $("btn-forward").addEventListener("click", function () { pause(); go(state.k + 1); });
    $("speed").addEventListener("change", function () {
      state.speed = Number($("speed").value);
      if (state.playing) { clearTimeout(state.timer); state.timer = setTimeout(tick, STEP_MS / state.speed); }
    });
    $("scrub").addEventListener("input", function () { pause(); go(Number($("scrub").value)); });
    document.addEventListener("keydown", function (e) {
      var t = e.target, tag = t && t.tagName;
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      if ((tag === "BUTTON" || tag === "SELECT") && (e.key === " " || e.key === "Enter")) return;
      if (tag === "INPUT" || tag === "SELECT") return;   /* the scrub bar and menus keep their keys */
      var N = stories[state.s].frames.length - 1;
      if (e.key === " " || e.key === "Spacebar") toggle();
      else if (e.key === "ArrowRight") { pause(); go(state.k + 1); }
      else if (e.key === "ArrowLeft") { pause(); go(state.k - 1); }
      else if (e.key === "Home") { pause(); go(0); }
      else if (e.key === "End") { pause(); go(N); }
      else return;
      e.preventDefault();
    });
    /* play once when scrolled into view, never under reduced motion */
    if (!reduce && "IntersectionObserver" in window) {
      var io = new IntersectionObserver(function (entries) {
        entries.forEach(function (en) {
          if (en.isIntersecting && !state.seen) { state.seen = true; play(); }
        });
      }, { threshold: 0.4 });
      io.observe($("stage"));
    }
  }

  if (narrow && narrow.addEventListener)
    narrow.addEventListener("change", function () { buildStage(stories[state.s]); draw(); });
  buildPicker();
  bind();
  choose(data.initial || 0);
})();
