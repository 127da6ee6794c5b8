// Browser test of `nasperf report`: stores fixture runs with the real binary, opens the
// report offline in Debian's headless Chromium (playwright-core) and checks what it drew.
//
//   NODE_PATH=build/web/node_modules node tests/browser/report_browser_test.cjs \
//       --nasperf build/nasperf --out build/test-output/browser
//
// With --seed-diagnosis PATH (build/nasperf_seed_diagnosis) it also stores the fixture
// diagnosis (src/testing/pci_nic_diagnosis.h), writes `report d1` and checks the waterfall:
// a bar per layer with the stored figures, the cap bar highlighted, the cached bar faded,
// the line rate and payload maximum as reference lines; <out>/waterfall.png is its picture.
//
// It also imports a stored many-clients run (tests/browser/many-clients.json: 4 ranks, rank 3
// sent no result, as `mpirun -n 4 nasperf run` stores a killed rank), stores a run of a
// block-size mix and a paced run, writes <out>/many.html of those three and checks the
// per-rank chart (a row per rank, the ranks' own MB/s, rank 3 named "no result"), the
// per-size table and the pacing table; <out>/many.png is its picture.
//
// Last it stores a run of every application workload (`nasperf app`, report_app_checks.cjs),
// writes <out>/apps.html and checks the "Application workloads" section: a bar per run with
// its stored MB/s, grouped and coloured by cache state, the tables' cells and the timeline;
// <out>/apps.png is its picture.
//
// Exit 0: passed, <out>/report.html and <out>/report.png written. Exit 1: failed (each
// reason printed). Exit 77: Chromium or playwright-core missing and CI is not "true"
// (ctest's SKIP_RETURN_CODE); under CI=true a missing browser is a failure.
'use strict';

const childProcess = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const {makeAppReport, inspectApps, checkApps} = require('./report_app_checks.cjs');

const EXIT_FAIL = 1;
const EXIT_SKIP = 77;
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
// The flags the report issue asks for; playwright adds --headless itself.
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];
const RENDER_TIMEOUT_MS = 30000;
const COMMAND_TIMEOUT_MS = 180000;
// Pixels in colour (not white, grey or black) a chart must have: its series are drawn in
// colour, its text, axes and grid in greys, so a chart without data has next to none.
const MIN_COLOUR_PIXELS = 500;
const QUICK_LABELS = ['mtu=1500', 'mtu=9000'];
const SWEEP_LABEL = 'Atom + Openfiler';
const TIMED_LABEL = 'timed read';
const LINE_LABELS = ['100 Mbps LAN', '1 GbE theoretical', 'PCI GbE actual'];
// The fixture diagnosis's waterfall (src/testing/pci_nic_diagnosis.h), in its order.
const WATERFALL_MB_PER_S = [2104, 240.5, 212.25, 64.2, 61.8, 410, null];
const WATERFALL_CAP_INDEX = 3;
const WATERFALL_CACHED_INDEX = 5;
const WATERFALL_LINES = [['line rate 1,000 Mbit/s', 125], ['TCP payload max', 118.7]];
const HIGHLIGHT = '#D55E00';
const MANY_CLIENTS_FIXTURE = path.join(__dirname, 'many-clients.json');
const SIZE_MIX_LABEL = 'size mix';
const PACED_LABEL = 'paced';
const BAR = '#0072B2';

// ------------------------------------------------------------------ arguments, set-up
function parseArgs(argv) {
  const args = {nasperf: '', out: '', 'seed-diagnosis': ''};
  for (let i = 0; i < argv.length; i++) {
    const key = argv[i].replace(/^--/, '');
    if (!(key in args) || i + 1 >= argv.length)
      throw new Error('usage: report_browser_test.cjs --nasperf PATH --out DIR [--seed-diagnosis PATH]');
    args[key] = path.resolve(argv[++i]);
  }
  if (!args.nasperf || !args.out) throw new Error('usage: report_browser_test.cjs --nasperf PATH --out DIR');
  return args;
}

// playwright-core's chromium, or why it cannot be had.
function findBrowser() {
  let chromium;
  try {
    ({chromium} = require('playwright-core'));
  } catch (err) {
    return {missing: 'playwright-core cannot be loaded (set NODE_PATH to build/web/node_modules): ' + err.message.split('\n')[0]};
  }
  try {
    fs.accessSync(CHROMIUM, fs.constants.X_OK);
  } catch (err) {
    return {missing: 'no Chromium at ' + CHROMIUM + ' (apt-get install chromium, or set $CHROMIUM)'};
  }
  return {chromium};
}

function runNasperf(bin, args, cwd) {
  const env = Object.assign({}, process.env);
  delete env.NASPERF_DB; // every command names its --db
  const r = childProcess.spawnSync(bin, args, {cwd, env, encoding: 'utf8', timeout: COMMAND_TIMEOUT_MS});
  if (r.error || r.status !== 0) {
    const why = r.error ? r.error.message : 'exit ' + r.status + (r.signal ? ' (' + r.signal + ')' : '');
    throw new Error('nasperf ' + args.join(' ') + ' failed: ' + why + '\n' + (r.stderr || '') + (r.stdout || ''));
  }
  return r.stdout;
}

// Stores the fixture runs and writes <out>/report.html. The timed run is there so that
// the throughput-over-time chart has samples on any disk: on fast storage (tmpfs, NVMe)
// every 8 MiB quick test ends before the 0.2 s that the shortest sample needs.
function makeReport(bin, tmp, out) {
  const db = path.join(tmp, 'results.db');
  const data = path.join(tmp, 'data');
  fs.mkdirSync(data);
  for (const mtu of ['1500', '9000'])
    runNasperf(bin, ['quick', data, '--size', '8m', '--repeat', '1', '--tag', 'mtu=' + mtu, '--db', db], tmp);
  runNasperf(bin, ['sweep', data, '--max', '2m', '--name', SWEEP_LABEL, '--db', db], tmp);
  // Direct I/O like the quick tests, so that its bar stays on their scale.
  runNasperf(bin, ['run', data, '--rw', 'read', '--bs', '1m', '--size', '8m', '--direct', '--time', '3s',
    '--name', TIMED_LABEL, '--db', db], tmp);
  const html = path.join(out, 'report.html');
  runNasperf(bin, ['report', '--last', '4', '-o', html, '--line', 'PCI GbE actual=67', '--db', db], tmp);
  return html;
}

// Stores the fixture diagnosis and a step of it, and writes <out>/waterfall.html of `report d1`.
function makeDiagnosisReport(bin, seed, tmp, out) {
  const db = path.join(tmp, 'diagnosis.db');
  const r = childProcess.spawnSync(seed, [db], {encoding: 'utf8', timeout: COMMAND_TIMEOUT_MS});
  if (r.error || r.status !== 0 || r.stdout.trim() !== 'd1')
    throw new Error('nasperf_seed_diagnosis ' + db + ' failed: ' + (r.error ? r.error.message : 'exit ' + r.status) +
      '\n' + (r.stderr || '') + (r.stdout || ''));
  runNasperf(bin, ['run', 'null:', '--rw', 'read', '--bs', '1m', '--size', '8m', '--tag', 'diagnosis=d1', '--db', db], tmp);
  const html = path.join(out, 'waterfall.html');
  runNasperf(bin, ['report', 'd1', '-o', html, '--db', db], tmp);
  return html;
}

// Imports the many-clients fixture, stores a block-size mix and a paced run, and writes
// <out>/many.html of the three.
function makeManyReport(bin, tmp, out) {
  const db = path.join(tmp, 'many.db');
  const data = path.join(tmp, 'many-data');
  fs.mkdirSync(data);
  runNasperf(bin, ['results', 'import', MANY_CLIENTS_FIXTURE, '--db', db], tmp);
  runNasperf(bin, ['run', data, '--rw', 'randread', '--bs', '4k/50:64k/50', '--size', '8m', '--name', SIZE_MIX_LABEL,
    '--db', db], tmp);
  runNasperf(bin, ['run', data, '--rw', 'read', '--bs', '4k', '--size', '8m', '--rate-iops', '400', '--time', '1s',
    '--name', PACED_LABEL, '--db', db], tmp);
  const html = path.join(out, 'many.html');
  runNasperf(bin, ['report', '--last', '3', '-o', html, '--db', db], tmp);
  return html;
}

// The per-rank chart, the per-size and pacing tables, as the page holds them.
function inspectMany() {
  const spec = window.nasperfReport.charts.find((c) => c.id.startsWith('chart-ranks-'));
  const tables = (sel) => [...document.querySelectorAll(sel)].map((t) =>
    [...t.querySelectorAll('tbody tr')].map((tr) => [...tr.children].map((c) => c.textContent)));
  const out = {charts: window.nasperfReport.charts.map((c) => c.id), sizes: tables('table.per-size'),
    pacing: tables('table.pacing'), notices: [...document.querySelectorAll('.notice')].map((n) => n.textContent)};
  if (!spec) return Object.assign(out, {missing: 'no chart-ranks-* among ' + out.charts.join(', ')});
  const box = document.getElementById(spec.id);
  const chart = box && echarts.getInstanceByDom(box);
  if (!chart) return Object.assign(out, {missing: 'chart ' + spec.id + ' was not drawn'});
  const option = chart.getOption();
  out.categories = option.yAxis[0].data;
  out.series = option.series.map((s) => ({name: s.name,
    values: (s.data || []).map((d) => (d && typeof d === 'object' ? d.value : d)),
    labels: (s.data || []).map((d, i) => (d == null || typeof s.label.formatter !== 'function' ? ''
      : s.label.formatter({value: d && typeof d === 'object' ? d.value : d, dataIndex: i})))}));
  let colourPixels = 0;
  for (const canvas of box.querySelectorAll('canvas')) {
    const px = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    for (let i = 0; i < px.length; i += 4)
      if (px[i + 3] > 64 && Math.max(px[i], px[i + 1], px[i + 2]) - Math.min(px[i], px[i + 1], px[i + 2]) > 48) colourPixels += 1;
  }
  out.colourPixels = colourPixels;
  const caption = box.closest('.chart-wrap').querySelector('.caption');
  out.caption = caption ? caption.textContent : '';
  return out;
}

function checkMany(m, fixture, fail) {
  for (const n of m.notices) fail('the many-clients page shows a notice: ' + n);
  if (m.missing) return fail(m.missing);
  const cluster = fixture.runs[0].cluster;
  if (m.categories.length !== cluster.ranks || cluster.each.length !== cluster.ranks)
    fail('per-rank chart has ' + m.categories.length + ' rows, want one per rank (' + cluster.ranks + '): ' + JSON.stringify(m.categories));
  const write = m.series.find((s) => s.name === 'write');
  if (!write) fail('per-rank chart has no write series: ' + JSON.stringify(m.series.map((s) => s.name)));
  cluster.each.forEach((r, i) => {
    const want = r.reported ? r.write.mb_per_s : null;
    if (write && write.values[i] !== want) fail('rank ' + r.rank + ' write bar is ' + write.values[i] + ', want ' + want);
  });
  const missing = m.series.find((s) => s.name === 'no result');
  const lost = cluster.each.findIndex((r) => !r.reported);
  if (!missing || !String(missing.labels[lost]).startsWith('no result'))
    fail('the rank that sent no result is not labelled "no result": ' + JSON.stringify(missing));
  if (m.colourPixels <= MIN_COLOUR_PIXELS) fail('per-rank chart looks empty: ' + m.colourPixels + ' pixels in colour');
  for (const want of ['Merged total', 'Stonewall window', 'Start skew', 'Spread', 'rank 3: no result'])
    if (!m.caption.includes(want)) fail('per-rank caption lacks "' + want + '": ' + JSON.stringify(m.caption));
  const sizes = m.sizes[0] || [];
  for (const size of ['4 KiB', '64 KiB', 'total'])
    if (!sizes.some((row) => row[0] === size)) fail('per-size table lacks the row "' + size + '": ' + JSON.stringify(sizes));
  const pacing = (m.pacing[0] || [])[0] || [];
  if (!pacing.some((c) => c === '400 IOPS')) fail('pacing table lacks the target "400 IOPS": ' + JSON.stringify(pacing));
  if (pacing.filter((c) => /µs$/.test(c)).length !== 4)
    fail('pacing table lacks p50/p99 from the intended start and of the service time: ' + JSON.stringify(pacing));
}

// The waterfall chart as ECharts holds it: bars, their styles, the reference lines.
function inspectWaterfall() {
  const spec = window.nasperfReport.charts.find((c) => c.id.startsWith('chart-waterfall-'));
  if (!spec) return {missing: 'no chart-waterfall-* among ' + window.nasperfReport.charts.map((c) => c.id).join(', ')};
  const box = document.getElementById(spec.id);
  const chart = box && echarts.getInstanceByDom(box);
  if (!chart) return {missing: 'chart ' + spec.id + ' was not drawn'};
  const series = chart.getOption().series.filter((s) => s.type === 'bar');
  const bars = ((series[0] && series[0].data) || []).map((d) => ({
    value: d && typeof d === 'object' ? d.value : d,
    colour: d && d.itemStyle ? d.itemStyle.color : '',
    opacity: d && d.itemStyle && d.itemStyle.opacity != null ? d.itemStyle.opacity : 1,
    dashed: !!(d && d.itemStyle && d.itemStyle.borderType === 'dashed')}));
  const lines = [];
  for (const s of chart.getOption().series)
    for (const d of (s.markLine && s.markLine.data) || [])
      lines.push({value: d.xAxis, label: d.label && typeof d.label.formatter === 'function' ? d.label.formatter(d) : d.name});
  let colourPixels = 0;
  for (const canvas of box.querySelectorAll('canvas')) {
    const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    for (let i = 0; i < pixels.length; i += 4)
      if (pixels[i + 3] > 64 && Math.max(pixels[i], pixels[i + 1], pixels[i + 2]) - Math.min(pixels[i], pixels[i + 1], pixels[i + 2]) > 48)
        colourPixels += 1;
  }
  const table = box.closest('.chart-wrap').querySelector('pre.diagnosis-table');
  return {id: spec.id, title: spec.title, bars, lines, colourPixels, table: table ? table.textContent : '',
    notices: [...document.querySelectorAll('.notice')].map((n) => n.textContent)};
}

function checkWaterfall(w, fail) {
  if (w.missing) return fail(w.missing);
  for (const n of w.notices) fail('the waterfall page shows a notice: ' + n);
  if (w.colourPixels <= MIN_COLOUR_PIXELS) fail('waterfall ' + w.id + ' looks empty: ' + w.colourPixels + ' pixels in colour');
  const values = w.bars.map((b) => b.value);
  if (JSON.stringify(values) !== JSON.stringify(WATERFALL_MB_PER_S))
    fail('waterfall bars are ' + JSON.stringify(values) + ', want ' + JSON.stringify(WATERFALL_MB_PER_S));
  w.bars.forEach((b, i) => {
    const want = i === WATERFALL_CAP_INDEX ? HIGHLIGHT : BAR;
    if (String(b.colour).toUpperCase() !== want) fail('waterfall bar ' + i + ' is ' + b.colour + ', want ' + want);
    const cached = i === WATERFALL_CACHED_INDEX;
    if (cached !== (b.opacity < 1 && b.dashed))
      fail('waterfall bar ' + i + (cached ? ' is cached but not faded and dashed' : ' is faded or dashed but not cached'));
  });
  for (const [label, value] of WATERFALL_LINES)
    if (!w.lines.some((l) => l.value === value && String(l.label).startsWith(label)))
      fail('waterfall lacks the reference line "' + label + '" at ' + value + ' MB/s: ' + JSON.stringify(w.lines));
  if (!w.table.includes('end to end: 61.8 MB/s (49 % of line rate); capped by: network'))
    fail('the waterfall page lacks the table\'s end-to-end line: ' + JSON.stringify(w.table));
  if (!w.table.includes('the link path caps at 64 MB/s')) fail('the waterfall page lacks the cause');
}

// ------------------------------------------------------------------ the browser
// Opens the page with every non-file request blocked and recorded, and every console
// error or warning and page error collected.
async function openReport(chromium, userDataDir, html) {
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, viewport: {width: 1280, height: 900}, timeout: 60000});
  const seen = {requests: new Set(), messages: []};
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:')) return route.continue();
    seen.requests.add(url);
    return route.abort();
  });
  // Requests the router does not see (a service worker's, say) are failures too.
  context.on('request', (req) => {
    if (!/^(file|data|blob|about):/.test(req.url())) seen.requests.add(req.url());
  });
  const page = context.pages()[0] || (await context.newPage());
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') seen.messages.push('console ' + msg.type() + ': ' + msg.text());
  });
  page.on('pageerror', (err) => seen.messages.push('page error: ' + (err && err.stack ? err.stack : String(err))));
  page.on('crash', () => seen.messages.push('the page crashed'));
  page.on('websocket', (ws) => seen.requests.add(ws.url()));
  return {context, page, seen};
}

// Each chart's reference and marker lines, read from its ECharts option (no pixel
// readback: a second round of getImageData makes Chromium warn on the console).
function inspectMarkLines() {
  return window.nasperfReport.charts.map((c) => {
    const box = document.getElementById(c.id);
    const chart = box && typeof echarts !== 'undefined' ? echarts.getInstanceByDom(box) : null;
    const markLines = [];
    for (const s of (chart && chart.getOption().series) || [])
      for (const d of (s.markLine && s.markLine.data) || []) {
        const label = d.label && typeof d.label.formatter === 'function' ? d.label.formatter(d) : '';
        markLines.push(label && label !== d.name ? [d.name, label].filter(Boolean).join(' | ') : d.name || '');
      }
    return {id: c.id, markLines};
  });
}

// Everything the checks need, gathered inside the page.
function inspectPage(minColour) {
  const report = window.nasperfReport;
  const charts = report.charts.map((c) => {
    const box = document.getElementById(c.id);
    const info = {id: c.id, title: c.title, series: c.series, found: !!box, canvases: 0, colourPixels: 0, points: 0,
      markLines: [], caption: ''};
    if (!box) return info;
    for (const canvas of box.querySelectorAll('canvas')) {
      info.canvases += 1;
      if (!canvas.width || !canvas.height) continue;
      const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      for (let i = 0; i < pixels.length; i += 4) {
        const [r, g, b, a] = [pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]];
        if (a > 64 && Math.max(r, g, b) - Math.min(r, g, b) > 48) info.colourPixels += 1;
      }
    }
    const chart = typeof echarts !== 'undefined' ? echarts.getInstanceByDom(box) : null;
    if (chart) {
      for (const s of chart.getOption().series || []) {
        if (!String(s.name).startsWith('\u200b')) info.points += (s.data || []).length; // not the markers' helper
        for (const d of (s.markLine && s.markLine.data) || []) {
          const label = d.label && typeof d.label.formatter === 'function' ? d.label.formatter(d) : '';
          info.markLines.push(label && label !== d.name ? [d.name, label].filter(Boolean).join(' | ') : d.name || '');
        }
      }
    }
    const wrap = box.closest('.chart-wrap') || box.parentElement;
    const caption = wrap && wrap.querySelector('.caption');
    info.caption = caption ? caption.textContent : '';
    return info;
  });
  const table = document.querySelector('table.facts');
  const facts = table && {
    columns: [...table.querySelectorAll('thead th')].slice(1).map((th) => th.firstChild ? th.firstChild.textContent : ''),
    rows: [...table.querySelectorAll('tbody tr')].map((tr) => ({
      key: tr.querySelector('th').textContent,
      hasDiff: tr.classList.contains('has-diff'),
      cells: [...tr.querySelectorAll('td')].map((td) => ({text: td.textContent, differs: td.classList.contains('differs'),
        marked: !!td.querySelector('.diff-mark')})),
    })),
  };
  let data = null;
  try {
    data = JSON.parse(document.getElementById('nasperf-data').textContent);
  } catch (err) {
    // no data: the sweep-tests check below says so
  }
  const sweepTests = new Set();
  for (const item of (data && data.items) || [])
    if (item.kind === 'sweep') for (const p of item.points || []) sweepTests.add(String(p.test));
  return {renderedMs: report.renderedMs, error: report.error || '', charts, facts, sweepTests: [...sweepTests],
    notices: [...document.querySelectorAll('.notice')].map((n) => n.textContent), minColour};
}

// ------------------------------------------------------------------ the checks
function checkCharts(info, fail) {
  const byId = new Map(info.charts.map((c) => [c.id, c]));
  const sweeps = info.charts.filter((c) => c.id.startsWith('chart-sweep-'));
  if (!info.sweepTests.length) fail('the report data has no sweep points');
  for (const test of info.sweepTests) {
    if (!sweeps.some((c) => c.title.startsWith(test + ':')))
      fail('no sweep chart for test "' + test + '" (sweep charts: ' + sweeps.map((c) => c.title).join('; ') + ')');
  }
  for (const id of ['chart-bars', 'chart-latency', 'chart-timeline'])
    if (!byId.has(id)) fail('chart ' + id + ' is missing (charts: ' + info.charts.map((c) => c.id).join(', ') + ')');
  for (const c of info.charts) {
    if (!c.found) fail('chart ' + c.id + ' is listed in window.nasperfReport but has no element');
    else if (!c.canvases) fail('chart ' + c.id + ' has no canvas');
    else if (!c.points) fail('chart ' + c.id + ' has no data points in its series');
    else if (c.colourPixels <= info.minColour)
      fail('chart ' + c.id + ' looks empty: ' + c.colourPixels + ' pixels in colour (want > ' + info.minColour + ')');
  }
  for (const c of sweeps)
    if (!c.series.includes(SWEEP_LABEL))
      fail('sweep chart ' + c.id + ' lacks series "' + SWEEP_LABEL + '": ' + JSON.stringify(c.series));
  const bars = byId.get('chart-bars');
  for (const label of QUICK_LABELS.concat(TIMED_LABEL))
    if (bars && !bars.series.includes(label)) fail('bar chart lacks series "' + label + '": ' + JSON.stringify(bars.series));
  for (const id of ['chart-latency', 'chart-timeline']) {
    const c = byId.get(id);
    if (!c) continue;
    const want = id === 'chart-latency' ? QUICK_LABELS : [TIMED_LABEL];
    for (const label of want)
      if (!c.series.some((s) => s.startsWith(label + ' ')))
        fail(id + ' has no series of "' + label + '": ' + JSON.stringify(c.series));
  }
  const logSweeps = (info.logCharts || []).filter((c) => c.id.startsWith('chart-sweep-'));
  checkReferenceLines(sweeps, logSweeps, fail);
}

// On the linear axis a reference line is drawn (a markLine) or, when it lies far above
// or below the data, named in the chart's caption. On the logarithmic axis (the chart's
// toggle, switched on by the test: `logSweeps`) every line must be drawn on some chart.
function checkReferenceLines(sweeps, logSweeps, fail) {
  for (const label of LINE_LABELS) {
    for (const c of sweeps)
      if (!c.markLines.some((m) => m.includes(label)) && !c.caption.includes(label))
        fail('sweep chart ' + c.id + ': reference line "' + label + '" is neither drawn nor named; mark lines: ' +
          JSON.stringify(c.markLines));
    if (logSweeps.length && !logSweeps.some((c) => c.markLines.some((m) => m.includes(label))))
      fail('reference line "' + label + '" is drawn on no sweep chart, even on the logarithmic axis');
  }
}

function checkFacts(facts, fail, notes) {
  if (!facts) return fail('the facts table (table.facts) is missing');
  for (const label of QUICK_LABELS.concat(SWEEP_LABEL))
    if (!facts.columns.includes(label)) fail('the facts table has no column "' + label + '": ' + JSON.stringify(facts.columns));
  const marked = facts.rows.filter((r) => r.cells.some((c) => c.differs));
  if (!marked.length) fail('the facts table marks no cell as differing (td.differs)');
  for (const r of marked) {
    if (!r.hasDiff) fail('facts row "' + r.key + '" has differing cells but no has-diff class');
    if (r.cells.some((c) => c.differs && !c.marked)) fail('facts row "' + r.key + '": a differing cell lacks its ≠ mark');
  }
  // The two quick runs differ only in their mtu tag: a tags row must show it.
  const first = facts.columns.indexOf(QUICK_LABELS[0]);
  const second = facts.columns.indexOf(QUICK_LABELS[1]);
  const tagRows = facts.rows.filter((r) => /(^|\.)tags?\b/.test(r.key));
  if (!tagRows.length) {
    notes.push('the facts table has no tags row, so mtu=1500 and mtu=9000 differ there only by noise ' +
      '(rows marked: ' + marked.map((r) => r.key).join(', ') + ')');
  } else if (first === 0 && second > 0) {
    const mtu = tagRows.find((r) => r.cells[first] && /1500/.test(r.cells[first].text));
    if (!mtu) fail('no tags row holds mtu=1500: ' + tagRows.map((r) => r.key).join(', '));
    else if (!mtu.cells[second].differs) fail('facts row "' + mtu.key + '" does not mark mtu=9000 as differing');
  }
}

function check(info, seen) {
  const failures = [];
  const notes = [];
  const fail = (msg) => failures.push(msg);
  for (const url of seen.requests) fail('network request (the report must work offline): ' + url);
  for (const msg of seen.messages) fail(msg);
  if (info.error) fail('the page reports an error: ' + info.error);
  for (const n of info.notices) fail('the page shows a notice: ' + n);
  checkCharts(info, fail);
  checkFacts(info.facts, fail, notes);
  return {failures, notes};
}

// ------------------------------------------------------------------ main
async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(args.nasperf)) throw new Error('no nasperf binary at ' + args.nasperf);
  const browser = findBrowser();
  if (browser.missing) {
    if (process.env.CI === 'true') throw new Error(browser.missing + ' (CI=true: a missing browser is a failure)');
    console.log('SKIP: ' + browser.missing);
    return EXIT_SKIP;
  }
  fs.mkdirSync(args.out, {recursive: true});
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nasperf-browser-'));
  const cleanup = () => fs.rmSync(tmp, {recursive: true, force: true});
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]]) {
    process.once(signal, () => {
      cleanup();
      process.exit(code); // playwright kills the browser it started on exit
    });
  }
  let opened = null;
  try {
    const html = makeReport(args.nasperf, tmp, args.out);
    opened = await openReport(browser.chromium, path.join(tmp, 'chromium-profile'), html);
    const {page, seen} = opened;
    const started = Date.now();
    await page.goto('file://' + html, {waitUntil: 'load', timeout: RENDER_TIMEOUT_MS});
    try {
      await page.waitForFunction(() => typeof (window.nasperfReport && window.nasperfReport.renderedMs) === 'number',
        null, {timeout: Math.max(1000, RENDER_TIMEOUT_MS - (Date.now() - started))});
    } catch (err) {
      await page.screenshot({path: path.join(args.out, 'report.png'), fullPage: true}).catch(() => {});
      throw new Error('window.nasperfReport.renderedMs was not set within ' + RENDER_TIMEOUT_MS / 1000 + ' s' +
        (seen.messages.length ? '; page said:\n  ' + seen.messages.join('\n  ') : ''));
    }
    const info = await page.evaluate(inspectPage, MIN_COLOUR_PIXELS);
    // A reader's click on each sweep chart's "logarithmic MB/s axis" toggle: every line drawn.
    await page.evaluate(() => document.querySelectorAll('.log-toggle').forEach((t) => t.click()));
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    info.logCharts = await page.evaluate(inspectMarkLines);
    await page.evaluate(() => document.querySelectorAll('.log-toggle').forEach((t) => t.click()));
    if (process.env.VERBOSE)
      for (const c of info.charts) console.log(c.id + ': ' + c.points + ' points, ' + c.colourPixels + ' pixels in colour');
    const png = path.join(args.out, 'report.png');
    await page.screenshot({path: png, fullPage: true});
    const {failures, notes} = check(info, seen);
    for (const n of notes) console.log('note: ' + n);
    if (failures.length) {
      console.error('FAIL: ' + failures.length + ' problem(s) in ' + html + ' (screenshot ' + png + '):');
      for (const f of failures) console.error('  - ' + f);
      return EXIT_FAIL;
    }
    if (args['seed-diagnosis']) {
      const waterfallHtml = makeDiagnosisReport(args.nasperf, args['seed-diagnosis'], tmp, args.out);
      await page.goto('file://' + waterfallHtml, {waitUntil: 'load', timeout: RENDER_TIMEOUT_MS});
      await page.waitForFunction(() => typeof (window.nasperfReport && window.nasperfReport.renderedMs) === 'number',
        null, {timeout: RENDER_TIMEOUT_MS});
      const w = await page.evaluate(inspectWaterfall);
      const shot = path.join(args.out, 'waterfall.png');
      const wrap = await page.$('#diagnoses');
      await (wrap ? wrap.screenshot({path: shot}) : page.screenshot({path: shot, fullPage: true}));
      const wfails = [];
      checkWaterfall(w, (m) => wfails.push(m));
      for (const msg of seen.messages) wfails.push(msg);
      for (const url of seen.requests) wfails.push('network request: ' + url);
      if (wfails.length) {
        console.error('FAIL: ' + wfails.length + ' problem(s) in ' + waterfallHtml + ' (screenshot ' + shot + '):');
        for (const f of wfails) console.error('  - ' + f);
        return EXIT_FAIL;
      }
      console.log('PASS: waterfall ' + w.id + ': ' + w.bars.length + ' bars, cap and cached marked, ' + w.lines.length +
        ' reference lines; ' + shot);
    }
    const manyHtml = makeManyReport(args.nasperf, tmp, args.out);
    await page.goto('file://' + manyHtml, {waitUntil: 'load', timeout: RENDER_TIMEOUT_MS});
    await page.waitForFunction(() => typeof (window.nasperfReport && window.nasperfReport.renderedMs) === 'number',
      null, {timeout: RENDER_TIMEOUT_MS});
    const many = await page.evaluate(inspectMany);
    const manyShot = path.join(args.out, 'many.png');
    await page.screenshot({path: manyShot, fullPage: true});
    const mfails = [];
    checkMany(many, JSON.parse(fs.readFileSync(MANY_CLIENTS_FIXTURE, 'utf8')), (msg) => mfails.push(msg));
    for (const msg of seen.messages) mfails.push(msg);
    for (const url of seen.requests) mfails.push('network request: ' + url);
    if (mfails.length) {
      console.error('FAIL: ' + mfails.length + ' problem(s) in ' + manyHtml + ' (screenshot ' + manyShot + '):');
      for (const f of mfails) console.error('  - ' + f);
      return EXIT_FAIL;
    }
    console.log('PASS: per-rank chart of ' + many.categories.length + ' ranks (one lost, named), per-size and pacing tables; ' + manyShot);
    const apps = makeAppReport(runNasperf, args.nasperf, tmp, args.out);
    await page.goto('file://' + apps.html, {waitUntil: 'load', timeout: RENDER_TIMEOUT_MS});
    await page.waitForFunction(() => typeof (window.nasperfReport && window.nasperfReport.renderedMs) === 'number',
      null, {timeout: RENDER_TIMEOUT_MS});
    const appInfo = await page.evaluate(inspectApps);
    const appShot = path.join(args.out, 'apps.png');
    await page.screenshot({path: appShot, fullPage: true});
    const afails = [];
    checkApps(appInfo, apps.stored, MIN_COLOUR_PIXELS, (msg) => afails.push(msg));
    for (const msg of seen.messages) afails.push(msg);
    for (const url of seen.requests) afails.push('network request: ' + url);
    if (afails.length) {
      console.error('FAIL: ' + afails.length + ' problem(s) in ' + apps.html + ' (screenshot ' + appShot + '):');
      for (const f of afails) console.error('  - ' + f);
      return EXIT_FAIL;
    }
    console.log('PASS: application workloads: ' + appInfo.categories.length + ' bars (' +
      appInfo.series.map((s) => s.name).join(', ') + '), ' + appInfo.runs.length + ' run tables; ' + appShot);
    const sweeps = info.charts.filter((c) => c.id.startsWith('chart-sweep-')).length;
    console.log('PASS: ' + info.charts.length + ' charts (' + sweeps + ' sweep, bars, latency, over time), rendered in ' +
      Math.round(info.renderedMs) + ' ms, no network, no console errors; ' + png);
    return 0;
  } finally {
    if (opened) await opened.context.close().catch(() => {});
    cleanup();
  }
}

main().then((code) => process.exit(code), (err) => {
  console.error('FAIL: ' + (err && err.message ? err.message : String(err)));
  process.exit(EXIT_FAIL);
});
