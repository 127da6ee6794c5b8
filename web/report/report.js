// nasperf report page: reads the report data embedded in the page (#nasperf-data) and
// draws the header, sweep curves, bars, latency, throughput-over-time and facts table
// with ECharts (global `echarts`, canvas renderer). Vanilla ES2020, no network.
// Exposes window.nasperfReport = {renderedMs, charts: [{id, title, series}]} for the
// browser test; keep that name and shape.
(function () {
  'use strict';

  // Okabe–Ito, in this order: distinguishable with the common colour-vision deficiencies.
  const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#D55E00', '#CC79A7', '#56B4E9', '#F0E442', '#000000'];
  // Shapes and dashes go with the colours, so series differ by more than colour.
  const SYMBOLS = ['circle', 'rect', 'triangle', 'diamond', 'roundRect', 'pin', 'arrow'];
  const DASHES = ['solid', 'dashed', 'dotted', [10, 4, 2, 4], [16, 4], [2, 4, 8, 4]];
  const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", "DejaVu Sans", Arial, sans-serif';
  const INK = '#1f2328';
  const MUTED = '#57606a';
  const RULE = '#e3e6ea';
  const MARKER_GREY = '#4d4d4d';
  // Beyond this many series a chart starts with the rest hidden (the legend lists all).
  const MAX_SHOWN_SERIES = 24;
  // Chart width while printing: A4 or Letter portrait minus margins, at 96 px per inch.
  const PRINT_WIDTH_PX = 680;
  // Sweep charts: plot margins (px) and the rows above the plot that carry the labels
  // of the knee and RAM lines.
  const SWEEP_GRID = {left: 64, right: 40};
  const MARKER_FONT_PX = 11;
  const MARKER_ROW_PX = 17;
  // Charts with this many series or more put their legend on the right, one entry a
  // line, when they are at least NARROW_PX wide, and below the plot when narrower.
  const SIDE_LEGEND_FROM = 7;
  const SIDE_LEGEND_PX = 300;
  const NARROW_PX = 900;
  // The header lists the items one a line up to this many; more go in a closed <details>.
  const ITEM_LIST_OPEN_MAX = 12;
  // A reference line below this fraction of the MB/s axis would sit on the axis: named
  // in the caption instead (on a linear axis; the logarithmic one draws them all).
  const LOW_LINE_FRACTION = 1 / 30;
  // Facts: numbers that differ by no more than this (relative to the larger) are alike;
  // figures that drift between any two runs are never marked.
  const FACT_TOLERANCE = 0.10;
  const DRIFTING_FACT = /page_cache_bytes|available_bytes|free_bytes/;
  // Fact values longer than this wrap in a column of limited width (mount options).
  const LONG_FACT_CHARS = 40;
  const PERCENTILES = [['p50', 'p50'], ['p90', 'p90'], ['p99', 'p99'], ['p999', 'p99.9'], ['max', 'max']];
  const DIRECTIONS = ['read', 'write'];
  const HELPER_SERIES = '\u200bnasperf markers'; // carries reference lines; not in the legend

  // ---------------------------------------------------------------- small helpers
  const isNum = (v) => typeof v === 'number' && Number.isFinite(v);
  const list = (v) => (Array.isArray(v) ? v : []);
  const record = (v) => (v && typeof v === 'object' && !Array.isArray(v) ? v : {});
  const str = (v, fallback) => (v == null || v === '' ? fallback : String(v));

  // 1234.5 with 1 digit -> "1,234.5" (Intl.NumberFormat's first use costs tens of ms).
  function fmtNumber(v, digits) {
    const [int, frac] = Math.abs(v).toFixed(digits).split('.');
    const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    return (v < 0 && Number(int + (frac || '')) !== 0 ? '-' : '') + grouped + (frac ? '.' + frac : '');
  }
  // 65536 -> "64 KiB", 1610612736 -> "1.5 GiB" (binary units, like the C++ side).
  function fmtBytes(bytes) {
    if (!isNum(bytes)) return 'n/a';
    const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];
    let v = bytes;
    let i = 0;
    while (Math.abs(v) >= 1024 && i < units.length - 1) {
      v /= 1024;
      i += 1;
    }
    const s = Number.isInteger(v) ? String(v) : v.toFixed(1).replace(/\.0$/, '');
    return s + ' ' + units[i];
  }
  // MB/s (10^6 B/s) with sensible precision: 3309, 112.6, 9.87, 0.512.
  function fmtMBps(v) {
    if (!isNum(v)) return 'n/a';
    const a = Math.abs(v);
    return fmtNumber(v, a >= 1000 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3);
  }
  // A reference speed as the user wrote it: 125, 12.5.
  function fmtLineMBps(v) {
    return Number.isInteger(v) ? String(v) : fmtMBps(v);
  }
  function fmtUs(v) {
    if (!isNum(v)) return 'n/a';
    const a = Math.abs(v);
    return fmtNumber(v, a >= 100 ? 0 : a >= 10 ? 1 : 2) + ' µs';
  }
  // Axis ticks of a log axis: 0.1, 1, 10, 1,000 (no "0.10" beside "1").
  function fmtAxisNumber(v) {
    if (!isNum(v)) return '';
    const a = Math.abs(v);
    if (a >= 1) return fmtNumber(v, Number.isInteger(v) ? 0 : 1);
    return String(Number(v.toPrecision(2)));
  }
  function fmtPct(v) {
    return (v > 0 ? '+' : '') + v.toFixed(1) + ' %';
  }
  function escapeHtml(s) {
    return String(s).replace(/[&<>"']/g, (c) => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'})[c]);
  }
  // The Okabe–Ito yellow is too pale for text on white.
  function textColour(colour) {
    return colour === '#F0E442' ? '#8a7f00' : colour;
  }
  function emptySymbol(symbol) {
    return 'empty' + symbol.charAt(0).toUpperCase() + symbol.slice(1);
  }
  let measureContext = null;
  function textWidthPx(text, fontPx) {
    if (!measureContext) measureContext = document.createElement('canvas').getContext('2d');
    if (!measureContext) return text.length * fontPx * 0.6;
    measureContext.font = fontPx + 'px ' + FONT;
    return measureContext.measureText(text).width;
  }

  // h('p', {class: 'note'}, 'text', childNode): text is never parsed as HTML.
  function h(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v == null || v === false) continue;
      if (k === 'class') node.className = v;
      else node.setAttribute(k, v === true ? '' : String(v));
    }
    for (const c of children.flat()) {
      if (c == null || c === false) continue;
      node.append(c instanceof Node ? c : String(c));
    }
    return node;
  }

  // ---------------------------------------------------------------- the data
  function readData() {
    const holder = document.getElementById('nasperf-data');
    const text = holder ? holder.textContent.trim() : '';
    if (!text || text.startsWith('/*@')) throw new Error('this page carries no report data');
    try {
      return JSON.parse(text);
    } catch (err) {
      // An HTML comment opener followed by a script tag, left unescaped in the data, makes
      // this element run on to the end of the page: the closing tags follow the JSON,
      // which is itself whole.
      const end = text.lastIndexOf('}');
      if (end < 0 || end === text.length - 1) throw err;
      return JSON.parse(text.slice(0, end + 1));
    }
  }

  // Items with unique labels (a label names a legend entry) and their runs in order;
  // `measures` are the (run, direction) pairs of the non-sweep items.
  function buildModel(raw) {
    const data = record(raw);
    const seen = new Set();
    const items = list(data.items).map((it, i) => {
      const item = record(it);
      const key = str(item.key, 'item' + (i + 1));
      let label = str(item.label, key);
      if (seen.has(label)) label += ' (' + key + ')';
      for (let n = 2; seen.has(label); n++) label = str(item.label, key) + ' (' + n + ')';
      seen.add(label);
      return {key, kind: str(item.kind, 'run'), label, raw: item, runs: []};
    });
    const byKey = new Map(items.map((it) => [it.key, it]));
    for (const r of list(data.runs)) {
      const run = record(r);
      const item = byKey.get(str(run.item, ''));
      if (item) item.runs.push(run);
    }
    for (const item of items) {
      const order = list(item.raw.run_ids);
      if (order.length) {
        const pos = new Map(order.map((id, i) => [id, i]));
        const rank = (run) => (pos.has(run.id) ? pos.get(run.id) : order.length);
        item.runs.sort((a, b) => rank(a) - rank(b)); // stable: unknown ids keep data order
      }
    }
    const measures = [];
    const categories = [];
    const categoryIndex = new Map();
    const barItems = items.filter((it) => it.kind !== 'sweep');
    barItems.forEach((item, itemSlot) => {
      const count = new Map();
      for (const run of item.runs) {
        for (const dir of DIRECTIONS) {
          if (!run[dir] || typeof run[dir] !== 'object') continue;
          const label = runLabel(run);
          // A plain run's label starts with its rw ("read 1 MiB Q1T1"): no second "read".
          const rw = run.test ? '' : str(record(run.job).rw, '');
          const base = /^(rand)?(read|write)$/.test(rw) && rw.endsWith(dir) ? label : label + ' ' + dir;
          const n = (count.get(base) || 0) + 1;
          count.set(base, n);
          const category = n === 1 ? base : base + ' (' + n + ')';
          if (!categoryIndex.has(category)) {
            categoryIndex.set(category, categories.length);
            categories.push(category);
          }
          measures.push({item, itemSlot, run, dir, figures: record(run[dir]), category,
            categorySlot: categoryIndex.get(category), name: item.label + ' · ' + category});
        }
      }
    });
    return {data, items, barItems, measures, categories};
  }

  // "SEQ1M Q8T1", or for a plain run "randread 4 KiB Q32T1".
  function runLabel(run) {
    if (run.test) return String(run.test);
    const job = record(run.job);
    const parts = [];
    if (job.rw) parts.push(String(job.rw));
    if (isNum(job.bs)) parts.push(fmtBytes(job.bs));
    if (isNum(job.qd) || isNum(job.threads))
      parts.push('Q' + (isNum(job.qd) ? job.qd : '?') + 'T' + (isNum(job.threads) ? job.threads : '?'));
    if (parts.length) return parts.join(' ');
    return run.name ? String(run.name) : 'run #' + str(run.id, '?');
  }

  // ---------------------------------------------------------------- charts
  // Sections build their DOM and register charts; drawCharts() draws them all once the
  // page is laid out. build(widthPx, selected) -> {option, heightPx}: a chart's layout
  // follows its width (screen, phone, printed page); `selected` is the legend state.
  const charts = []; // {id, title, series, box, build, chart}
  const afterCharts = []; // DOM to insert once the charts have their widths

  function addChart(parent, id, title, series, build) {
    const box = h('div', {class: 'chart', id, role: 'img', 'aria-label': title});
    parent.append(box);
    const spec = {id, title, series, box, build, chart: null};
    charts.push(spec);
    return spec;
  }

  function drawCharts() {
    const widths = charts.map((c) => c.box.clientWidth || 800); // one layout for all
    const built = charts.map((c, i) => {
      try {
        return c.build(widths[i], null);
      } catch (err) {
        return {error: err};
      }
    });
    built.forEach((b, i) => {
      if (!b.error) charts[i].box.style.height = b.heightPx + 'px';
    });
    charts.forEach((c, i) => {
      try {
        if (built[i].error) throw built[i].error;
        // The size given: no reading the layout back between charts.
        c.chart = echarts.init(c.box, null, {renderer: 'canvas', width: widths[i], height: built[i].heightPx});
        c.chart.setOption(built[i].option);
      } catch (err) {
        console.error('nasperf report: chart ' + c.id + ':', err);
        if (c.chart) c.chart.dispose();
        c.chart = null;
        c.box.style.height = '';
        c.box.replaceChildren(h('p', {class: 'notice'}, 'This chart could not be drawn: ' + (err && err.message ? err.message : String(err))));
      }
    });
  }

  // Lays a chart out again for `widthPx` (null: its box's width), keeping what the
  // reader hid or showed in the legend. A new pixel ratio (print) needs a new canvas.
  function redraw(spec, widthPx, pixelRatio) {
    if (!spec.chart) return;
    const legend = record(list(spec.chart.getOption().legend)[0]);
    const width = widthPx || spec.box.clientWidth || spec.chart.getWidth();
    const {option, heightPx} = spec.build(width, legend.selected || null);
    spec.box.style.height = heightPx + 'px';
    const ratio = pixelRatio || window.devicePixelRatio || 1;
    if (ratio !== (spec.pixelRatio || window.devicePixelRatio || 1)) {
      spec.chart.dispose();
      spec.chart = echarts.init(spec.box, null, {renderer: 'canvas', width, height: heightPx, devicePixelRatio: ratio});
      spec.pixelRatio = ratio;
      spec.chart.setOption(option);
      return;
    }
    spec.chart.resize({width, height: heightPx});
    spec.chart.setOption(option, {notMerge: true});
  }

  function baseOption(title, subtitle) {
    return {
      animation: false,
      color: PALETTE,
      textStyle: {fontFamily: FONT, color: INK},
      title: {text: title, subtext: subtitle || '', left: 12, top: 6, itemGap: 4,
        textStyle: {fontSize: 15, fontWeight: 600, color: INK}, subtextStyle: {fontSize: 12, color: MUTED}},
      tooltip: {confine: true, backgroundColor: 'rgba(255,255,255,0.97)', borderColor: '#b8bec6',
        textStyle: {fontSize: 12, color: INK}, extraCssText: 'max-width: 460px; white-space: normal;'},
    };
  }

  // Where the legend goes: a few entries above the plot when they fit one row; many or
  // long ones on the right of a wide
  // chart, one a line; on a narrow one (a phone, a printed page) the shown entries below
  // the plot, all visible. The first MAX_SHOWN_SERIES entries start shown. Returns the
  // legend and the room it takes: {legend, top, right, bottom, minHeight} in px.
  function legendLayout(names, widthPx, selected) {
    const sel = {};
    names.forEach((name, i) => {
      sel[name] = selected && name in selected ? selected[name] !== false : i < MAX_SHOWN_SERIES;
    });
    const common = {type: 'scroll', data: names, selected: sel, itemWidth: 30, itemHeight: 12,
      textStyle: {fontSize: 12, color: INK}, pageTextStyle: {color: MUTED}};
    // A few short names fit one row above the plot; longer ones would page and be cut.
    const oneRow = () => names.reduce((sum, n) => sum + 30 + 5 + textWidthPx(n, 12) + 16, 0) <= widthPx - 24;
    if (names.length < SIDE_LEGEND_FROM && oneRow()) {
      return {legend: Object.assign(common, {top: 50, left: 12, right: 12, itemGap: 16}), top: 86, right: 0, bottom: 0, minHeight: 0};
    }
    if (widthPx >= NARROW_PX) {
      // Truncating costs a measurement per entry: only when some name is too long,
      // and then the full name shows on hover.
      const textPx = SIDE_LEGEND_PX - 50;
      const tooLong = names.some((n) => n.length * 5 > textPx && textWidthPx(n, 12) > textPx);
      return {legend: Object.assign(common, {orient: 'vertical', right: 10, top: 56, bottom: 16, itemGap: 8,
        textStyle: tooLong ? {fontSize: 12, color: INK, width: textPx, overflow: 'truncate'} : common.textStyle,
        tooltip: {show: tooLong}}), top: 60, right: SIDE_LEGEND_PX, bottom: 0,
        minHeight: 56 + Math.min(names.length, MAX_SHOWN_SERIES + 2) * 20 + 40}; // 20 px an entry
    }
    const shown = names.filter((n) => sel[n]);
    const room = widthPx - 24;
    let rows = 1;
    let x = 0;
    for (const n of shown) {
      const w = Math.min(room, 30 + 5 + textWidthPx(n, 12) + 14);
      if (x > 0 && x + w > room) {
        rows += 1;
        x = 0;
      }
      x += w;
    }
    const legendPx = rows * 24 + 14; // a row: the 12 px icon or text, plus the 14 px gap
    return {legend: Object.assign(common, {type: 'plain', data: shown, bottom: 6, left: 12, right: 12, itemGap: 14}),
      top: 60, right: 0, bottom: legendPx, minHeight: 0};
  }

  function valueAxis(name, extra) {
    return Object.assign({type: 'value', name, nameLocation: 'middle', nameGap: 46,
      nameTextStyle: {color: INK, fontSize: 12}, axisLabel: {color: MUTED, fontSize: 11},
      axisLine: {show: true, lineStyle: {color: '#8c959f'}}, splitLine: {lineStyle: {color: RULE}}}, extra || {});
  }

  function tooltipRow(marker, name, value) {
    return '<div class="tt-row">' + marker + ' ' + escapeHtml(name) + ': <b>' + escapeHtml(value) + '</b></div>';
  }

  function hiddenNote(names) {
    return names.length > MAX_SHOWN_SERIES
      ? 'The first ' + MAX_SHOWN_SERIES + ' of ' + names.length + ' series are shown; click legend entries to show or hide others.'
      : '';
  }

  // ---------------------------------------------------------------- page skeleton
  function section(root, id, heading, intro) {
    const s = h('section', {id, class: 'report-section'}, h('h2', {}, heading));
    if (intro) s.append(h('p', {class: 'intro'}, intro));
    root.append(s);
    return s;
  }

  function skipNote(s, text) {
    s.classList.add('skipped');
    s.append(h('p', {class: 'note'}, text));
  }

  function caption(parent, ...lines) {
    const c = h('div', {class: 'caption'});
    for (const line of lines.flat()) if (line) c.append(h('p', {}, line));
    if (c.childNodes.length) parent.append(c);
    return c;
  }

  function renderHeader(root, model) {
    const d = model.data;
    const version = str(record(d.nasperf).version, 'unknown');
    const meta = h('dl', {class: 'meta'},
      h('dt', {}, 'Generated'), h('dd', {}, h('time', {datetime: str(d.generated_at, '')}, str(d.generated_at, 'unknown'))),
      h('dt', {}, 'Command'), h('dd', {}, h('code', {}, str(d.command_line, 'unknown'))),
      h('dt', {}, 'nasperf'), h('dd', {}, 'version ' + version));
    const items = h('ul', {class: 'items'});
    for (const it of model.items) {
      const runs = it.kind === 'sweep' ? list(it.raw.points).length + ' points' : it.runs.length + ' run' + (it.runs.length === 1 ? '' : 's');
      const partial = it.runs.some((r) => r.partial === true) ? ' · partial' : '';
      items.append(h('li', {}, h('span', {class: 'kind'}, it.kind), ' ', h('b', {}, it.label), ' ',
        h('span', {class: 'muted'}, '(' + it.key + ', ' + runs + partial + ')')));
    }
    const header = h('header', {class: 'report-header'},
      h('h1', {}, str(d.title, 'nasperf report')), meta,
      h('p', {class: 'units'}, 'Units: MB/s = 10⁶ bytes per second; file and block sizes in binary units ' +
        '(1 KiB = 1024 bytes, MiB, GiB); latency in microseconds (µs).'),
      model.items.length ? h('div', {class: 'item-list'}, h('h2', {}, 'Items'), itemList(model.items, items))
        : h('p', {class: 'note'}, 'The report has no items.'));
    root.append(header);
  }

  // A long list stays closed (and is not laid out) until the reader opens it.
  function itemList(items, ul) {
    if (items.length <= ITEM_LIST_OPEN_MAX) return ul;
    const kinds = new Map();
    for (const it of items) kinds.set(it.kind, (kinds.get(it.kind) || 0) + 1);
    const byKind = [...kinds].map(([kind, n]) => n + ' ' + kind).join(', ');
    return h('details', {class: 'items-more'}, h('summary', {}, items.length + ' items (' + byKind + ')'), ul);
  }

  function renderNav(root, sections) {
    const nav = h('nav', {class: 'toc', 'aria-label': 'Sections'});
    for (const [id, label] of sections) nav.append(h('a', {href: '#' + id}, label));
    root.append(nav);
  }

  // ---------------------------------------------------------------- 1. sweep curves
  function renderSweeps(root, model) {
    const s = section(root, 'sweeps', 'Throughput against file size (sweeps)');
    const sweeps = model.items.filter((it) => it.kind === 'sweep');
    const pairs = [];
    const pairKeys = new Set();
    const addPair = (test, recordBytes) => {
      const key = test + '|' + recordBytes;
      if (!pairKeys.has(key)) {
        pairKeys.add(key);
        pairs.push({test, recordBytes});
      }
    };
    for (const sw of sweeps) {
      for (const c of list(record(sw.raw.sweep).curves)) addPair(str(record(c).test, '?'), record(c).record_bytes);
      for (const p of list(sw.raw.points)) addPair(str(record(p).test, '?'), record(p).record_bytes);
    }
    if (!sweeps.length || !pairs.length) {
      skipNote(s, sweeps.length ? 'The selected sweeps have no points.' : 'No sweep was selected, so there are no file-size curves.');
      return;
    }
    const records = new Set(pairs.map((p) => p.recordBytes));
    s.append(h('p', {class: 'intro'}, 'Filled symbols are cached points (the file fits in RAM that can cache it); hollow ' +
      'symbols are uncached. Grey dashed lines are reference speeds; solid vertical lines mark each curve\'s knee, ' +
      'dashed vertical lines the RAM sizes.'));
    const grid = h('div', {class: 'chart-grid'});
    s.append(grid);
    let drawn = 0;
    for (const pair of pairs) if (renderSweepChart(grid, model, sweeps, pair, records.size > 1, drawn + 1)) drawn += 1;
    if (!drawn) skipNote(s, 'The selected sweeps have no points with a throughput.');
  }

  // Returns whether it drew a chart: not when no sweep has a figure for this test and record.
  function renderSweepChart(parent, model, sweeps, pair, manyRecords, number) {
    const entries = [];
    for (const [slot, sw] of sweeps.entries()) { // a sweep's colour and symbol: the same in every chart
      const points = list(sw.raw.points).map(record)
        .filter((p) => str(p.test, '?') === pair.test && p.record_bytes === pair.recordBytes && isNum(p.file_bytes) && p.file_bytes > 0)
        .sort((a, b) => a.file_bytes - b.file_bytes);
      const summary = record(sw.raw.sweep);
      const curve = record(list(summary.curves).map(record)
        .find((c) => str(c.test, '?') === pair.test && c.record_bytes === pair.recordBytes));
      if (!points.length && !curve.verdict) continue;
      entries.push({item: sw, points, curve, ram: record(summary.ram), direct: summary.direct === true, slot});
    }
    const xs = entries.flatMap((e) => e.points.map((p) => p.file_bytes));
    const ys = entries.flatMap((e) => e.points.map((p) => p.mb_per_s)).filter(isNum);
    if (!ys.length) return false;
    const xMin = xs.length ? 2 ** Math.floor(Math.log2(Math.min(...xs))) : 2 ** 16;
    const xMax = Math.max(xMin * 2, xs.length ? 2 ** Math.ceil(Math.log2(Math.max(...xs))) : 2 ** 31);
    const yMax = ys.length ? Math.max(...ys) : 0;
    const lines = list(model.data.lines).map(record).filter((l) => isNum(l.mb_per_s) && l.mb_per_s > 0);
    // A reference line far above the data would flatten the curves, one far below it
    // would sit on the axis: leave them out, say so.
    const highLines = lines.filter((l) => yMax > 0 && l.mb_per_s > 3 * yMax);
    const inRange = lines.filter((l) => !highLines.includes(l));
    const axisTop = Math.max(yMax, ...inRange.map((l) => l.mb_per_s));
    const lowLines = inRange.filter((l) => l.mb_per_s < axisTop * LOW_LINE_FRACTION);
    const shownLines = inRange.filter((l) => !lowLines.includes(l));
    const markers = sweepMarkers(entries, xMin, xMax);

    const title = pair.test + ': throughput against file size' + (manyRecords ? ', ' + fmtBytes(pair.recordBytes) + ' records' : '');
    const subtitle = (isNum(pair.recordBytes) ? fmtBytes(pair.recordBytes) + ' records · ' : '') +
      'filled symbols: cached, hollow: uncached';
    const ctx = {title, subtitle, entries, xMin, xMax, shownLines, lowLines, markers: markers.inside, logY: false};
    const names = entries.map((e) => e.item.label);

    const wrap = h('div', {class: 'chart-wrap'});
    parent.append(wrap);
    const id = 'chart-sweep-' + number + '-' + pair.test.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 24);
    const toggle = h('input', {type: 'checkbox', class: 'log-toggle'});
    wrap.append(h('div', {class: 'toolbar'}, h('label', {}, toggle, ' logarithmic MB/s axis')));
    const spec = addChart(wrap, id, title, names, (width, selected) => sweepOption(ctx, width, selected));
    toggle.addEventListener('change', () => {
      ctx.logY = toggle.checked;
      redraw(spec, printing ? PRINT_WIDTH_PX : null);
    });

    const notes = [];
    const lineList = (ls) => ls.map((l) => str(l.label, 'line') + ' ' + fmtLineMBps(l.mb_per_s) + ' MB/s').join('; ');
    if (highLines.length) notes.push('Reference lines above the chart: ' + lineList(highLines) + '.');
    if (lowLines.length)
      notes.push('Reference lines too low to draw on this scale (the logarithmic axis shows them): ' + lineList(lowLines) + '.');
    if (markers.outside.length) notes.push('Outside the file sizes swept: ' + markers.outside.join('; ') + '.');
    for (const e of entries) if (e.direct) notes.push(e.item.label + ' ran with direct I/O: every point is uncached.');
    const c = caption(wrap, notes);
    const verdicts = h('ul', {class: 'verdicts'});
    for (const e of entries) {
      const plateaus = [];
      if (isNum(e.curve.cached_mb_per_s)) plateaus.push('cached ' + fmtMBps(e.curve.cached_mb_per_s) + ' MB/s');
      if (isNum(e.curve.uncached_mb_per_s)) plateaus.push('uncached ' + fmtMBps(e.curve.uncached_mb_per_s) + ' MB/s');
      const verdict = str(e.curve.verdict, 'no analysis of this curve');
      verdicts.append(h('li', {}, h('b', {}, e.item.label + ': '), verdict + (plateaus.length ? ' (' + plateaus.join(', ') + ')' : '')));
    }
    c.append(verdicts);
    if (!wrap.contains(c)) wrap.append(c);
    return true;
  }

  // Knees and RAM sizes as vertical lines. A RAM size that several sweeps share is one
  // grey line (owner -1); the others belong to their sweep's series, so that its legend
  // entry hides them with it. Markers of one sweep at one size share a line and a label.
  function sweepMarkers(entries, xMin, xMax) {
    const byLine = new Map(); // "owner|bytes" -> marker
    const outside = [];
    const add = (owner, bytes, what, type, ownerText) => {
      const key = owner + '|' + bytes;
      if (!byLine.has(key)) byLine.set(key, {x: bytes, owner, parts: [], type, ownerText});
      const m = byLine.get(key);
      m.parts.push(what);
      if (type === 'solid') m.type = 'solid';
    };
    const ram = new Map(); // "client|bytes" -> {kind, bytes, slots}
    for (const e of entries) {
      if (isNum(e.curve.knee_bytes) && e.curve.knee_bytes > 0)
        add(e.slot, e.curve.knee_bytes, 'knee ' + fmtBytes(e.curve.knee_bytes), 'solid', e.item.label);
      for (const [field, kind] of [['client_bytes', 'client'], ['nas_bytes', 'NAS']]) {
        const bytes = e.ram[field];
        if (!isNum(bytes) || bytes <= 0) continue;
        const key = kind + '|' + bytes;
        if (!ram.has(key)) ram.set(key, {kind, bytes, slots: []});
        ram.get(key).slots.push(e.slot);
      }
    }
    const labelOf = new Map(entries.map((e) => [e.slot, e.item.label]));
    for (const {kind, bytes, slots} of ram.values()) {
      const owners = slots.map((slot) => labelOf.get(slot));
      const what = kind + ' RAM ' + fmtBytes(bytes);
      if (bytes < xMin || bytes > xMax) outside.push(what + ' (' + owners.join(', ') + ')');
      else if (slots.length === 1) add(slots[0], bytes, what, 'dashed', owners[0]);
      else add(-1, bytes, what, 'dashed', slots.length === entries.length ? '' : owners.join(', '));
    }
    const inside = [...byLine.values()].map((m) =>
      ({x: m.x, owner: m.owner, type: m.type, text: m.parts.join(' · ') + (m.ownerText ? ' (' + m.ownerText + ')' : '')}));
    return {inside, outside};
  }

  // Places the marker labels above the plot, centred on their line (or ending or starting
  // at it near the chart's edges), in as few rows as keep them apart at this width.
  function placeMarkerLabels(markers, ctx, widthPx) {
    const plotPx = Math.max(80, widthPx - SWEEP_GRID.left - SWEEP_GRID.right);
    const span = Math.log2(ctx.xMax) - Math.log2(ctx.xMin) || 1;
    const placed = markers.map((m) => {
      const x = SWEEP_GRID.left + (Math.log2(m.x) - Math.log2(ctx.xMin)) / span * plotPx;
      const w = textWidthPx(m.text, MARKER_FONT_PX) + 8;
      const fits = (left) => left >= 4 && left + w <= widthPx - 4;
      let align = 'center';
      let left = x - w / 2;
      if (!fits(left)) {
        // Ending at the line or starting at it; when neither fits, the side with more room.
        const end = fits(x - w) || (!fits(x) && x > widthPx / 2);
        align = end ? 'right' : 'left';
        left = end ? x - w : x;
      }
      return {m, align, left, right: left + w, row: 0};
    }).sort((a, b) => a.left - b.left);
    const rowEnds = [];
    for (const p of placed) {
      let row = rowEnds.findIndex((end) => end + 6 <= p.left);
      if (row < 0) row = rowEnds.length;
      rowEnds[row] = p.right;
      p.row = row;
    }
    return {placed, rows: rowEnds.length};
  }

  function markLineOf(data) {
    return {silent: true, symbol: ['none', 'none'], animation: false, data};
  }

  function sweepOption(ctx, widthPx, selected) {
    const option = baseOption(ctx.title, ctx.subtitle);
    const names = ctx.entries.map((e) => e.item.label);
    const legend = legendLayout(names, widthPx, selected);
    const plotWidthPx = widthPx - legend.right;
    const labels = placeMarkerLabels(ctx.markers, ctx, plotWidthPx);
    const markerPx = labels.rows * MARKER_ROW_PX;
    option.legend = legend.legend;
    option.grid = {left: SWEEP_GRID.left, right: SWEEP_GRID.right + legend.right, top: legend.top - 2 + markerPx,
      bottom: 58 + legend.bottom};
    // One axis label per power of two when there is room, else every 2nd, 4th...
    const powers = Math.log2(ctx.xMax) - Math.log2(ctx.xMin);
    const fit = Math.max(1, Math.floor((plotWidthPx - SWEEP_GRID.left - SWEEP_GRID.right) / 64));
    const step = [1, 2, 4, 8, 16].find((k) => powers / k <= fit) || 32;
    option.xAxis = valueAxis('File size (binary units, log₂ scale)', {type: 'log', logBase: 2, min: ctx.xMin, max: ctx.xMax,
      interval: step, nameGap: 32, axisLabel: {color: MUTED, fontSize: 11, formatter: (v) => fmtBytes(v), hideOverlap: true},
      splitLine: {show: true, lineStyle: {color: RULE}}});
    option.yAxis = valueAxis('Throughput (MB/s' + (ctx.logY ? ', log scale)' : ')'), ctx.logY ? {type: 'log', logBase: 10} : {min: 0});
    option.tooltip.trigger = 'axis';
    option.tooltip.axisPointer = {type: 'line', lineStyle: {color: '#8c959f'}};
    option.tooltip.formatter = (params) => {
      const rows = list(params).filter((p) => p.seriesName !== HELPER_SERIES && p.data && p.data.value);
      if (!rows.length) return '';
      let out = '<div class="tt-head">' + escapeHtml(fmtBytes(rows[0].data.value[0])) + ' file</div>';
      for (const p of rows) {
        const [x, y] = p.data.value;
        const at = x === rows[0].data.value[0] ? '' : ' at ' + fmtBytes(x);
        out += tooltipRow(p.marker, p.seriesName + at, fmtMBps(y) + ' MB/s, ' + (p.data.cached ? 'cached' : 'uncached'));
      }
      return out;
    };
    const own = new Map(ctx.entries.map((e) => [e.slot, []])); // a sweep's slot -> its markers
    const shared = [];
    for (const p of labels.placed) {
      const colour = p.m.owner >= 0 ? PALETTE[p.m.owner % PALETTE.length] : MARKER_GREY;
      const text = p.m.text;
      (p.m.owner >= 0 ? own.get(p.m.owner) : shared).push({xAxis: p.m.x, name: text,
        lineStyle: {color: colour, type: p.m.type, width: p.m.type === 'solid' ? 1.6 : 1.3},
        label: {formatter: () => text, position: 'end', distance: [0, 3 + p.row * MARKER_ROW_PX], align: p.align,
          color: textColour(colour), fontSize: MARKER_FONT_PX, backgroundColor: 'rgba(255,255,255,0.85)', padding: [1, 3]}});
    }
    option.series = ctx.entries.map((e) => {
      const colour = PALETTE[e.slot % PALETTE.length];
      const symbol = SYMBOLS[e.slot % SYMBOLS.length];
      return {
        type: 'line', name: e.item.label, symbol, symbolSize: 8, showAllSymbol: true, z: 3,
        itemStyle: {color: colour, borderColor: colour},
        lineStyle: {color: colour, width: 2, type: DASHES[e.slot % DASHES.length]},
        data: e.points.map((p) => {
          const y = isNum(p.mb_per_s) && !(ctx.logY && p.mb_per_s <= 0) ? p.mb_per_s : null;
          const cached = p.cached === true;
          return {value: [p.file_bytes, y], cached, symbol: cached ? symbol : emptySymbol(symbol)};
        }),
        markLine: markLineOf(own.get(e.slot)),
      };
    });
    // The helper series draws what belongs to no single sweep, and its invisible points
    // stretch the MB/s axis to the reference lines.
    const drawnLines = (ctx.logY ? ctx.shownLines.concat(ctx.lowLines) : ctx.shownLines).slice().sort((a, b) => a.mb_per_s - b.mb_per_s);
    const refLines = referenceLines(drawnLines, ctx, widthPx - legend.right, 440 + markerPx - option.grid.top - option.grid.bottom);
    option.series.push({
      type: 'line', name: HELPER_SERIES, silent: true, symbol: 'none', lineStyle: {opacity: 0}, z: 2,
      tooltip: {show: false}, data: drawnLines.map((l) => [ctx.xMin, l.mb_per_s]),
      markLine: markLineOf(refLines.concat(shared)),
    });
    return {option, heightPx: Math.max(440 + markerPx + legend.bottom, legend.minHeight)};
  }

  // Horizontal reference lines, lowest first. Labels of lines closer than two label
  // heights on the plot are staggered along the line, each left of the one below it.
  function referenceLines(lines, ctx, plotWidthPx, plotHeightPx) {
    const top = Math.max(...lines.map((l) => l.mb_per_s), ...ctx.entries.flatMap((e) => e.points.map((p) => p.mb_per_s)).filter(isNum));
    const yPx = (v) => (ctx.logY ? Math.log10(Math.max(v, 1e-9)) / Math.log10(Math.max(top, 10)) : v / top) * plotHeightPx;
    let prev = -Infinity;
    let prevEnd = 0; // how far left of the plot's end the previous label reaches
    return lines.map((l) => {
      const label = str(l.label, 'reference') + ' ' + fmtLineMBps(l.mb_per_s) + ' MB/s';
      const y = yPx(l.mb_per_s);
      const offset = y - prev < 2 * MARKER_ROW_PX ? Math.min(prevEnd + 8, Math.max(0, plotWidthPx / 2)) : 0;
      prev = y;
      prevEnd = offset + textWidthPx(label, 11) + 6;
      return {yAxis: l.mb_per_s, name: label, lineStyle: {color: MARKER_GREY, type: [8, 4], width: 1.2},
        label: {formatter: () => label, position: 'insideEndTop', distance: [offset, 2],
          color: MARKER_GREY, fontSize: 11, backgroundColor: 'rgba(255,255,255,0.85)', padding: [1, 3]}};
    });
  }

  // ---------------------------------------------------------------- 2. grouped bars
  function renderBars(root, model) {
    const s = section(root, 'bars', 'Throughput by test (quick suites, runs and imports)');
    const measures = model.measures.filter((m) => isNum(m.figures.mb_per_s));
    if (!measures.length) {
      skipNote(s, 'No quick suite, run or import with throughput was selected.');
      return;
    }
    const items = model.barItems.filter((it) => measures.some((m) => m.item === it));
    const categories = model.categories.filter((c) => measures.some((m) => m.category === c));
    const cell = new Map(measures.map((m) => [m.item.key + '\u0000' + m.category, m]));
    const values = items.map((it) => categories.map((c) => {
      const m = cell.get(it.key + '\u0000' + c);
      return m ? m.figures.mb_per_s : null;
    }));
    // Two or three items compare against the first (before/after, or two candidates).
    const pair = items.length === 2 || items.length === 3;
    const shown = Math.min(items.length, MAX_SHOWN_SERIES);
    const barPx = shown <= 3 ? 18 : shown <= 8 ? 12 : 7;
    const labels = barPx >= 12 && shown * categories.length <= 160;
    const title = 'Throughput by test and direction';
    const names = items.map((it) => it.label);
    const subtitle = pair ? 'before/after: “' + items[0].label + '” → ' + items.slice(1).map((it) => '“' + it.label + '”').join(', ')
      : 'MB/s, longer is faster';
    addChart(s, 'chart-bars', title, names, (widthPx, selected) =>
      barsOption({title, subtitle, names, items, categories, cell, values, pair, labels}, widthPx, selected,
        categories.length * (shown * barPx + 16)));
    const notes = [];
    if (pair) notes.push('Before/after: the bars of ' + items.slice(1).map((it) => '“' + it.label + '”').join(' and ') +
      ' are labelled with their change against “' + items[0].label + '”.');
    if (!labels) notes.push('Hover a bar for its value.');
    if (measures.some((m) => m.run.partial === true)) notes.push('Faded bars with a dashed outline are partial runs (stopped before the end).');
    notes.push(hiddenNote(names));
    caption(s, notes);
  }

  function barsOption(ctx, widthPx, selected, barsPx) {
    const {items, categories, cell, values, pair} = ctx;
    const option = baseOption(ctx.title, ctx.subtitle);
    const legend = legendLayout(ctx.names, widthPx, selected);
    option.legend = legend.legend;
    option.grid = {left: 12, right: (pair ? 120 : 64) + legend.right, top: legend.top, bottom: 52 + legend.bottom};
    option.xAxis = valueAxis('Throughput (MB/s)', {min: 0, nameGap: 30});
    option.yAxis = {type: 'category', data: categories, inverse: true, axisLabel: {color: INK, fontSize: 12},
      axisTick: {alignWithLabel: true}, axisLine: {lineStyle: {color: '#8c959f'}}};
    option.tooltip.trigger = 'axis';
    option.tooltip.axisPointer = {type: 'shadow'};
    option.tooltip.formatter = (params) => {
      const rows = list(params);
      if (!rows.length) return '';
      const category = categories[rows[0].dataIndex];
      let out = '<div class="tt-head">' + escapeHtml(category) + '</div>';
      for (const p of rows) {
        const m = cell.get(items[p.seriesIndex].key + '\u0000' + category);
        if (!m) continue;
        out += tooltipRow(p.marker, p.seriesName, runSummary(m, pair && p.seriesIndex > 0 ? values[0][p.dataIndex] : null));
      }
      return out;
    };
    option.series = items.map((it, i) => {
      const colour = PALETTE[i % PALETTE.length];
      return {
        type: 'bar', name: it.label, barMaxWidth: 22, barGap: '15%', barCategoryGap: '22%',
        itemStyle: {color: colour},
        label: {show: ctx.labels, position: 'right', fontSize: 11, color: INK,
          formatter: (p) => barLabel(p.value, pair && i > 0 ? values[0][p.dataIndex] : null)},
        data: values[i].map((v, j) => {
          const m = cell.get(it.key + '\u0000' + categories[j]);
          if (!m || m.run.partial !== true) return v;
          return {value: v, itemStyle: {color: colour, opacity: 0.45, borderColor: colour, borderType: 'dashed', borderWidth: 1.5}};
        }),
      };
    });
    return {option, heightPx: Math.max(legend.top + 52 + legend.bottom + barsPx, legend.minHeight)};
  }

  function barLabel(v, base) {
    if (!isNum(v)) return '';
    let text = fmtMBps(v);
    if (isNum(base) && base > 0) text += ' (' + fmtPct((v - base) / base * 100) + ')';
    return text;
  }

  function runSummary(m, base) {
    const f = m.figures;
    const parts = [fmtMBps(f.mb_per_s) + ' MB/s'];
    if (isNum(base) && base > 0 && isNum(f.mb_per_s)) parts[0] += ' (' + fmtPct((f.mb_per_s - base) / base * 100) + ')';
    if (isNum(f.iops)) parts.push(fmtNumber(f.iops, f.iops >= 100 ? 0 : 1) + ' IOPS');
    const lat = record(f.lat_us);
    if (isNum(lat.p99) && lat.p99 > 0) parts.push('p99 ' + fmtUs(lat.p99));
    const rep = record(m.run.repeats);
    if (isNum(rep.count) && rep.count > 1) {
      const ci = record(rep.ci95_mb_per_s);
      let r = 'median of ' + rep.count;
      if (isNum(ci.low) && isNum(ci.high)) r += ', 95 % CI ' + fmtMBps(ci.low) + '–' + fmtMBps(ci.high);
      if (isNum(rep.spread_pct)) r += ', spread ' + rep.spread_pct.toFixed(1) + ' %';
      if (rep.noisy === true) r += ', noisy';
      parts.push(r);
    }
    if (m.run.partial === true) parts.push('partial');
    if (m.run.id != null) parts.push('run #' + m.run.id);
    return parts.join(' · ');
  }

  // Lines of the measures: colour by test and direction, dash and symbol by item.
  // Hovering a line fades the others, unless there are so many that it would be slow.
  function measureSeries(m, data, count, extra) {
    const colour = PALETTE[m.categorySlot % PALETTE.length];
    return Object.assign({
      type: 'line', name: m.name, data, symbol: SYMBOLS[m.itemSlot % SYMBOLS.length], symbolSize: 7,
      itemStyle: {color: colour}, lineStyle: {color: colour, width: 2, type: DASHES[m.itemSlot % DASHES.length]},
      emphasis: count <= MAX_SHOWN_SERIES ? {focus: 'series'} : {},
    }, extra || {});
  }

  // ---------------------------------------------------------------- 3. latency
  function renderLatency(root, model) {
    const s = section(root, 'latency', 'Latency percentiles per run');
    const rows = model.measures.map((m) => {
      const lat = record(m.figures.lat_us);
      return {m, values: PERCENTILES.map(([k]) => (isNum(lat[k]) && lat[k] > 0 ? lat[k] : null))};
    }).filter((r) => r.values.some((v) => v !== null));
    if (!rows.length) {
      skipNote(s, 'No selected run has latency percentiles.');
      return;
    }
    const title = 'Completion latency percentiles';
    const note = addRunChart(s, 'chart-latency', title, rows, latencyOption);
    caption(s, 'Latency from submission to completion of each I/O, per run and direction; p99.9 is p999 in the JSON.', note);
  }

  // A chart of a line per run and direction. With more lines than MAX_SHOWN_SERIES it
  // draws the runs of the items ticked above it, at first the leading items up to that
  // many lines: hundreds of lines are slow to draw and cannot be read. Returns a note
  // for the caption.
  function addRunChart(s, id, title, rows, optionFor) {
    const items = new Map(); // item key -> {item, count}
    for (const r of rows) {
      if (!items.has(r.m.item.key)) items.set(r.m.item.key, {item: r.m.item, count: 0});
      items.get(r.m.item.key).count += 1;
    }
    const chosen = new Set();
    let lines = 0;
    for (const {item, count} of items.values()) {
      if (chosen.size && lines + count > MAX_SHOWN_SERIES) break;
      chosen.add(item.key);
      lines += count;
    }
    const drawn = () => rows.filter((r) => chosen.has(r.m.item.key));
    let spec = null;
    let picker = null;
    if (chosen.size < items.size) {
      picker = h('fieldset', {class: 'picker'}, h('legend', {}, 'Draw the runs of'));
      for (const {item, count} of items.values()) {
        const box = h('input', {type: 'checkbox', checked: chosen.has(item.key)});
        box.addEventListener('change', () => {
          if (box.checked) chosen.add(item.key);
          else chosen.delete(item.key);
          spec.series = drawn().map((r) => r.m.name);
          redraw(spec, printing ? PRINT_WIDTH_PX : null);
        });
        picker.append(h('label', {}, box, ' ' + item.label + ' (' + count + ')'));
      }
    }
    spec = addChart(s, id, title, drawn().map((r) => r.m.name), (widthPx, selected) => {
      const d = drawn();
      return optionFor(title, d.map((r) => r.m.name), d, widthPx, selected);
    });
    // Hundreds of check boxes cost layout time; they do not change the chart's width.
    if (chosen.size < items.size) afterCharts.push(() => spec.box.before(picker));
    return chosen.size < items.size
      ? 'At first the runs of ' + chosen.size + ' of ' + items.size + ' items are drawn (' + lines + ' of ' + rows.length +
        ' lines); tick items above the chart to draw theirs.'
      : '';
  }

  function latencyOption(title, names, rows, widthPx, selected) {
    const option = baseOption(title, 'log scale; colour: test and direction, line style: item');
    const legend = legendLayout(names, widthPx, selected);
    option.legend = legend.legend;
    option.grid = {left: 72, right: 36 + legend.right, top: legend.top, bottom: 52 + legend.bottom};
    option.xAxis = {type: 'category', data: PERCENTILES.map(([, label]) => label), boundaryGap: false,
      name: 'Percentile', nameLocation: 'middle', nameGap: 30, nameTextStyle: {color: INK},
      axisLabel: {color: INK}, axisLine: {lineStyle: {color: '#8c959f'}}};
    option.yAxis = valueAxis('Latency (µs, log scale)', {type: 'log', logBase: 10, nameGap: 56,
      axisLabel: {color: MUTED, fontSize: 11, formatter: fmtAxisNumber}});
    option.tooltip.trigger = 'axis';
    option.tooltip.formatter = (params) => {
      const ps = list(params);
      if (!ps.length) return '';
      let out = '<div class="tt-head">' + escapeHtml(ps[0].name) + ' latency</div>';
      for (const p of ps) if (isNum(p.value)) out += tooltipRow(p.marker, p.seriesName, fmtUs(p.value));
      return out;
    };
    option.series = rows.map((r) => measureSeries(r.m, r.values, rows.length, {connectNulls: true}));
    return {option, heightPx: Math.max(480 + legend.bottom, legend.minHeight)};
  }

  // ---------------------------------------------------------------- 4. over time
  function renderTimeline(root, model) {
    const s = section(root, 'timeline', 'Throughput over time per run');
    const rows = [];
    for (const m of model.measures) {
      const key = m.dir + '_mb_per_s';
      const data = [];
      for (const sample of list(m.run.samples)) {
        const smp = record(sample);
        if (isNum(smp.t_s) && isNum(smp[key])) data.push([smp.t_s, smp[key]]);
      }
      if (data.length) rows.push({m, data});
    }
    if (!rows.length) {
      skipNote(s, 'No selected run has per-second samples.');
      return;
    }
    const title = 'Per-second throughput';
    const note = addRunChart(s, 'chart-timeline', title, rows, timelineOption);
    const partial = rows.filter((r) => r.m.run.partial === true).map((r) => r.m.name);
    caption(s, partial.length ? 'Partial runs (stopped before the end): ' + partial.join('; ') + '.' : '', note);
  }

  function timelineOption(title, names, rows, widthPx, selected) {
    const option = baseOption(title, 'colour: test and direction, line style: item');
    const legend = legendLayout(names, widthPx, selected);
    option.legend = legend.legend;
    option.grid = {left: 64, right: 36 + legend.right, top: legend.top, bottom: 52 + legend.bottom};
    option.xAxis = valueAxis('Time since the run started (s)', {min: 0, nameGap: 30});
    option.yAxis = valueAxis('Throughput (MB/s)', {min: 0});
    option.tooltip.trigger = 'axis';
    option.tooltip.formatter = (params) => {
      const ps = list(params).filter((p) => Array.isArray(p.value));
      if (!ps.length) return '';
      let out = '<div class="tt-head">t = ' + escapeHtml(fmtNumber(ps[0].value[0], Number.isInteger(ps[0].value[0]) ? 0 : 1)) + ' s</div>';
      for (const p of ps) out += tooltipRow(p.marker, p.seriesName, fmtMBps(p.value[1]) + ' MB/s');
      return out;
    };
    option.series = rows.map((r) => measureSeries(r.m, r.data, rows.length, {
      showSymbol: r.data.length <= 2, symbolSize: 5, sampling: r.data.length > 600 ? 'lttb' : undefined,
      lineStyle: {color: PALETTE[r.m.categorySlot % PALETTE.length], width: 1.6, type: DASHES[r.m.itemSlot % DASHES.length]},
    }));
    return {option, heightPx: Math.max(460 + legend.bottom, legend.minHeight)};
  }

  // ---------------------------------------------------------------- 5. facts table
  function renderFacts(root, model) {
    const s = section(root, 'facts', 'What was measured: job and inventory');
    const items = model.items;
    const keys = [];
    const seen = new Set();
    for (const it of items) {
      for (const k of Object.keys(record(it.raw.facts))) {
        if (!seen.has(k)) {
          seen.add(k);
          keys.push(k);
        }
      }
    }
    if (!keys.length) {
      skipNote(s, 'The selected items carry no job or inventory facts.');
      return;
    }
    // Tags first: they are what the user set apart between the items.
    const isTag = (k) => k.startsWith('tags.');
    keys.sort((a, b) => Number(isTag(b)) - Number(isTag(a))); // stable: data order otherwise
    const filter = h('input', {type: 'checkbox'});
    s.append(h('div', {class: 'toolbar'}, h('label', {}, filter, ' show only the rows that differ')));
    s.append(h('p', {class: 'intro'}, 'Cells marked ≠ differ from the first column (' + items[0].label + '); numbers within ' +
      FACT_TOLERANCE * 100 + ' % of it and figures that change between any two runs (page cache, free and available bytes) ' +
      'are not marked. “varies” means the field differs between the runs of one item.'));
    const head = h('tr', {}, h('th', {scope: 'col', class: 'key'}, 'Fact'),
      items.map((it) => h('th', {scope: 'col'}, it.label, h('span', {class: 'sub'}, it.kind + ' · ' + it.key))));
    const body = h('tbody');
    for (const k of keys) {
      const values = items.map((it) => record(it.raw.facts)[k]);
      const cells = values.map((v) => factText(k, v));
      const row = h('tr', {}, h('th', {scope: 'row', class: 'key', title: k}, h('span', {class: 'name'}, k)));
      let differs = false;
      cells.forEach((c, i) => {
        const diff = i > 0 && factsDiffer(k, values[0], values[i], cells[0].text, c.text);
        differs = differs || diff;
        const long = c.text.length > LONG_FACT_CHARS;
        const td = h('td', {class: [diff ? 'differs' : '', c.cls, long ? 'long' : ''].filter(Boolean).join(' ') || null, title: c.title},
          diff ? h('span', {class: 'diff-mark', title: 'differs from the first column'}, '≠ ') : null,
          long ? breakable(c.text) : c.text);
        row.append(td);
      });
      if (differs) row.classList.add('has-diff');
      body.append(row);
    }
    const table = h('table', {class: 'facts'}, h('thead', {}, head), body);
    const holder = h('div', {class: 'table-scroll'});
    s.append(holder);
    filter.addEventListener('change', () => table.classList.toggle('only-diff', filter.checked));
    // A table of hundreds of columns costs a long layout: it goes in after the charts
    // have read their widths (see main).
    afterCharts.push(() => holder.append(table));
  }

  // A long value (mount options) with line-break opportunities after its commas.
  function breakable(text) {
    return text.split(/(?<=,)/).flatMap((part, i) => (i ? [h('wbr'), part] : [part]));
  }

  // Whether a fact differs enough to mark: tags whenever their text differs; numbers by
  // more than FACT_TOLERANCE of the larger; drifting figures never.
  function factsDiffer(key, a, b, textA, textB) {
    if (textA === textB) return false;
    if (key.startsWith('tags.')) return true;
    if (DRIFTING_FACT.test(key)) return false;
    const x = typeof a === 'string' && a.trim() !== '' ? Number(a) : a;
    const y = typeof b === 'string' && b.trim() !== '' ? Number(b) : b;
    if (isNum(x) && isNum(y)) {
      const larger = Math.max(Math.abs(x), Math.abs(y));
      return larger > 0 && Math.abs(x - y) / larger > FACT_TOLERANCE;
    }
    return true;
  }

  function factText(key, v) {
    if (v === undefined) return {text: '—', cls: 'missing', title: 'not recorded'};
    if (v === null) return {text: 'n/a', cls: 'missing'};
    if (v === 'varies') return {text: 'varies', cls: 'varies'};
    if (isNum(v) && /(_bytes|^job\.bs|^job\.size)$/.test(key)) return {text: fmtBytes(v), title: fmtNumber(v, 0) + ' bytes'};
    if (typeof v === 'object') return {text: JSON.stringify(v)};
    return {text: String(v)};
  }

  // ---------------------------------------------------------------- page life
  let printing = false;
  // Printing lays every chart out for the page's width, drawn at twice the resolution
  // at least; the screen for its box's width.
  function fitCharts(forPrint) {
    printing = forPrint;
    const screenRatio = window.devicePixelRatio || 1;
    const ratio = forPrint ? Math.max(2, screenRatio) : screenRatio;
    for (const c of charts) {
      if (!c.chart) continue;
      const width = forPrint ? PRINT_WIDTH_PX : c.box.clientWidth;
      if (width && (width !== c.chart.getWidth() || ratio !== (c.pixelRatio || screenRatio))) redraw(c, width, ratio);
    }
  }

  function watchSize() {
    let timer = 0;
    window.addEventListener('resize', () => {
      if (printing) return;
      clearTimeout(timer);
      timer = setTimeout(() => fitCharts(false), 120);
    });
    window.addEventListener('beforeprint', () => fitCharts(true));
    window.addEventListener('afterprint', () => fitCharts(false));
  }

  function renderSection(root, render, model) {
    try {
      render(root, model);
    } catch (err) {
      console.error('nasperf report:', err);
      root.append(h('p', {class: 'notice'}, 'A part of this report could not be drawn: ' + (err && err.message ? err.message : String(err))));
    }
  }

  function main() {
    const root = document.getElementById('nasperf-report') || document.body;
    let model;
    try {
      model = buildModel(readData());
    } catch (err) {
      root.append(h('p', {class: 'notice'}, 'The report data could not be read: ' + (err && err.message ? err.message : String(err))));
      window.nasperfReport = {renderedMs: performance.now(), charts: [], error: String(err && err.message ? err.message : err)};
      return;
    }
    document.title = str(model.data.title, 'nasperf report');
    if (typeof echarts === 'undefined') {
      root.append(h('p', {class: 'notice'}, 'The charting library is missing from this page; only the table is shown.'));
    }
    renderHeader(root, model);
    renderNav(root, [['sweeps', 'Sweeps'], ['bars', 'Throughput'], ['latency', 'Latency'], ['timeline', 'Over time'], ['facts', 'Facts']]);
    const sections = typeof echarts === 'undefined'
      ? [renderFacts]
      : [renderSweeps, renderBars, renderLatency, renderTimeline, renderFacts];
    for (const render of sections) renderSection(root, render, model);
    drawCharts();
    for (const insert of afterCharts) insert();
    watchSize();
    window.nasperfReport = {
      renderedMs: performance.now(),
      charts: charts.map((c) => ({id: c.id, title: c.title, series: c.series.slice()})),
    };
  }

  // The data element follows this script in the page.
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', main);
  else main();
})();
