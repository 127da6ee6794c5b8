// DiagnosisToJson / DiagnosisFromJson: a diagnosis (evidence, waterfall, causes) to and from
// its one JSON document. Every key is always written; the reader takes a missing or null
// key as unknown (older documents lack newer keys) and refuses a wrong type, naming the key.
#include "model/diagnosis_json.h"

#include <limits>
#include <string>
#include <utility>

#include "model/inventory_json.h"
#include "model/json_fields.h"

namespace nasperf {

using nlohmann::json;
using ojson = nlohmann::ordered_json;

namespace {

// --- writing -------------------------------------------------------------------------

ojson Ids(const std::vector<int64_t>& ids) {
  ojson out = ojson::array();
  for (int64_t id : ids) out.push_back(id);
  return out;
}

ojson FigureToJson(const LayerFigure& f) {
  ojson j;
  j["read_mb_per_s"] = OrNullJson(f.read_mb_per_s);
  j["write_mb_per_s"] = OrNullJson(f.write_mb_per_s);
  j["read_iops"] = OrNullJson(f.read_iops);
  j["write_iops"] = OrNullJson(f.write_iops);
  j["run_ids"] = Ids(f.run_ids);
  j["cached"] = f.cached;
  j["read_checked_uncached"] = f.read_checked_uncached;
  return j;
}

ojson CpuToJson(const CpuPeak& c) {
  return {{"cpu", c.cpu}, {"busy_pct", c.busy_pct}, {"softirq_pct", c.softirq_pct}, {"irq_pct", c.irq_pct}};
}

ojson OptionalCpu(const std::optional<CpuPeak>& c) { return c ? CpuToJson(*c) : ojson(nullptr); }

ojson IrqToJson(const IrqLanding& i) {
  ojson j;
  j["irq"] = i.irq;
  j["name"] = i.name;
  j["kind"] = i.kind;
  j["device"] = OrNullJson(i.device);
  j["top_cpu"] = i.top_cpu;
  j["top_share"] = i.top_share;
  j["count"] = i.count;
  j["smp_affinity"] = OrNullJson(i.smp_affinity);
  return j;
}

ojson HostToJson(const HostEvidence& h) {
  ojson j;
  j["measured"] = h.measured;
  j["hostname"] = OrNullJson(h.hostname);
  j["cores_logical"] = OrNullJson(h.cores_logical);
  j["nic"] = h.nic ? InventoryToJson(*h.nic) : ojson(nullptr);
  j["nic_bus"] = OrNullJson(h.nic_bus);
  j["nic_rated_mbps"] = OrNullJson(h.nic_rated_mbps);
  j["cpu_all"] = OptionalCpu(h.cpu_all);
  j["cpu_top"] = OptionalCpu(h.cpu_top);
  ojson cpus = ojson::array();
  for (const CpuPeak& c : h.cpus) cpus.push_back(CpuToJson(c));
  j["cpus"] = cpus;
  ojson irqs = ojson::array();
  for (const IrqLanding& i : h.irqs) irqs.push_back(IrqToJson(i));
  j["irqs"] = irqs;
  j["cgroup_path"] = OrNullJson(h.cgroup_path);
  j["cgroup_quota_cpus"] = OrNullJson(h.cgroup_quota_cpus);
  j["cgroup_usage_cpus"] = OrNullJson(h.cgroup_usage_cpus);
  j["cgroup_throttled_pct"] = OrNullJson(h.cgroup_throttled_pct);
  return j;
}

ojson MemberToJson(const MemberEvidence& m) {
  ojson j;
  j["device"] = m.device;
  j["model"] = OrNullJson(m.model);
  j["driver"] = OrNullJson(m.driver);
  j["link"] = OrNullJson(m.link);
  j["seq"] = FigureToJson(m.seq);
  j["rand"] = FigureToJson(m.rand);
  return j;
}

ojson NetToJson(const NetEvidence& n) {
  ojson j;
  j["measured"] = n.measured;
  j["up_1_mb_per_s"] = OrNullJson(n.up_1_mb_per_s);
  j["up_4_mb_per_s"] = OrNullJson(n.up_4_mb_per_s);
  j["down_1_mb_per_s"] = OrNullJson(n.down_1_mb_per_s);
  j["down_4_mb_per_s"] = OrNullJson(n.down_4_mb_per_s);
  j["retransmits"] = OrNullJson(n.retransmits);
  j["segments_sent"] = OrNullJson(n.segments_sent);
  j["retransmit_pct"] = OrNullJson(n.retransmit_pct);
  j["run_ids"] = Ids(n.run_ids);
  return j;
}

ojson EvidenceToJson(const Evidence& e) {
  ojson j;
  j["target"] = e.target;
  j["target_kind"] = e.target_kind;
  j["mode"] = e.mode;
  j["agent"] = e.agent;
  j["client"] = HostToJson(e.client);
  j["nas"] = HostToJson(e.nas);
  j["client_ceiling"] = FigureToJson(e.client_ceiling);
  j["client_cpu_us_per_io"] = OrNullJson(e.client_cpu_us_per_io);
  j["client_cpu_busy_pct"] = OrNullJson(e.client_cpu_busy_pct);
  j["raid"] = e.raid ? InventoryToJson(*e.raid) : ojson(nullptr);
  j["volume_fs"] = OrNullJson(e.volume_fs);
  ojson members = ojson::array();
  for (const MemberEvidence& m : e.members) members.push_back(MemberToJson(m));
  j["members"] = members;
  j["volume_seq"] = FigureToJson(e.volume_seq);
  j["volume_rand"] = FigureToJson(e.volume_rand);
  j["net"] = NetToJson(e.net);
  j["protocol_seq"] = FigureToJson(e.protocol_seq);
  j["protocol_rand"] = FigureToJson(e.protocol_rand);
  j["protocol_label"] = OrNullJson(e.protocol_label);
  // A list of pairs, not an object: the negotiation's order is kept through any reader.
  ojson negotiated = ojson::array();
  for (const auto& [name, value] : e.negotiated) negotiated.push_back({{"name", name}, {"value", value}});
  j["negotiated"] = negotiated;
  j["not_measured"] = StringsJson(e.not_measured);
  j["stated_line_rate_mbps"] = OrNullJson(e.stated_line_rate_mbps);
  return j;
}

ojson RowToJson(const WaterfallRow& r) {
  ojson j;
  j["layer"] = r.layer;
  j["what"] = r.what;
  j["mb_per_s"] = OrNullJson(r.mb_per_s);
  j["pct_of_line_rate"] = OrNullJson(r.pct_of_line_rate);
  j["pct_of_payload_max"] = OrNullJson(r.pct_of_payload_max);
  j["cached"] = r.cached;
  j["caps"] = r.caps;
  j["note"] = r.note;
  return j;
}

ojson CauseToJson(const Cause& c) {
  return {{"rule", c.rule}, {"layer", c.layer}, {"summary", c.summary}, {"evidence", StringsJson(c.evidence)}};
}

// --- reading: a missing or null key leaves the default; a wrong type is BadInput --------

// Where a key sits, for error lines: "evidence.nas.irqs[2].count".
std::string Path(const std::string& where, const std::string& key) { return where.empty() ? key : where + "." + key; }

Status Wrong(const std::string& where, const char* key, const char* expected, const json& got) {
  return Status::BadInput(Path(where, key) + ": expected " + expected + ", got " + QuotedJson(got));
}

// The value at `key`, or nullptr when it is missing or null (so the default stays).
const json* Find(const json& o, const char* key) {
  auto it = o.find(key);
  if (it == o.end() || it->is_null()) return nullptr;
  return &*it;
}

Status Read(const json& o, const std::string& where, const char* key, std::optional<double>* out) {
  const json* v = Find(o, key);
  if (!v) return Status::Ok();
  if (!v->is_number()) return Wrong(where, key, "a number", *v);
  *out = v->get<double>();
  return Status::Ok();
}

Status Read(const json& o, const std::string& where, const char* key, double* out) {
  std::optional<double> v;
  if (Status s = Read(o, where, key, &v); !s.ok()) return s;
  if (v) *out = *v;
  return Status::Ok();
}

Status Read(const json& o, const std::string& where, const char* key, std::optional<int64_t>* out) {
  const json* v = Find(o, key);
  if (!v) return Status::Ok();
  if (v->is_number_unsigned()) {
    if (v->get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
      return Wrong(where, key, "an integer that fits 64 bits", *v);
    *out = static_cast<int64_t>(v->get<uint64_t>());
    return Status::Ok();
  }
  if (!v->is_number_integer()) return Wrong(where, key, "an integer", *v);
  *out = v->get<int64_t>();
  return Status::Ok();
}

Status Read(const json& o, const std::string& where, const char* key, int64_t* out) {
  std::optional<int64_t> v;
  if (Status s = Read(o, where, key, &v); !s.ok()) return s;
  if (v) *out = *v;
  return Status::Ok();
}

Status Read(const json& o, const std::string& where, const char* key, std::optional<uint64_t>* out) {
  const json* v = Find(o, key);
  if (!v) return Status::Ok();
  if (!v->is_number_unsigned()) return Wrong(where, key, "a count (an integer >= 0)", *v);
  *out = v->get<uint64_t>();
  return Status::Ok();
}

Status Read(const json& o, const std::string& where, const char* key, uint64_t* out) {
  std::optional<uint64_t> v;
  if (Status s = Read(o, where, key, &v); !s.ok()) return s;
  if (v) *out = *v;
  return Status::Ok();
}

Status Read(const json& o, const std::string& where, const char* key, bool* out) {
  const json* v = Find(o, key);
  if (!v) return Status::Ok();
  if (!v->is_boolean()) return Wrong(where, key, "true or false", *v);
  *out = v->get<bool>();
  return Status::Ok();
}

Status Read(const json& o, const std::string& where, const char* key, std::optional<std::string>* out) {
  const json* v = Find(o, key);
  if (!v) return Status::Ok();
  if (!v->is_string()) return Wrong(where, key, "a string", *v);
  *out = v->get<std::string>();
  return Status::Ok();
}

Status Read(const json& o, const std::string& where, const char* key, std::string* out) {
  std::optional<std::string> v;
  if (Status s = Read(o, where, key, &v); !s.ok()) return s;
  if (v) *out = std::move(*v);
  return Status::Ok();
}

// A list of `key`, each element read by `element(value, "where.key[i]", &item)`.
template <typename T, typename F>
Status ReadList(const json& o, const std::string& where, const char* key, std::vector<T>* out, F element) {
  const json* v = Find(o, key);
  if (!v) return Status::Ok();
  if (!v->is_array()) return Wrong(where, key, "a list", *v);
  out->clear();
  out->reserve(v->size());
  for (size_t i = 0; i < v->size(); ++i) {
    T item{};
    if (Status s = element((*v)[i], Path(where, key) + "[" + std::to_string(i) + "]", &item); !s.ok()) return s;
    out->push_back(std::move(item));
  }
  return Status::Ok();
}

Status StringElement(const json& v, const std::string& where, std::string* out) {
  if (!v.is_string()) return Status::BadInput(where + ": expected a string, got " + QuotedJson(v));
  *out = v.get<std::string>();
  return Status::Ok();
}

Status IdElement(const json& v, const std::string& where, int64_t* out) {
  if (!v.is_number_integer() ||
      (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())))
    return Status::BadInput(where + ": expected an integer, got " + QuotedJson(v));
  *out = v.get<int64_t>();
  return Status::Ok();
}

// The object at `key`, read by `read(object, "where.key", out)`; missing or null leaves it.
template <typename T, typename F>
Status ReadObject(const json& o, const std::string& where, const char* key, T* out, F read) {
  const json* v = Find(o, key);
  if (!v) return Status::Ok();
  if (!v->is_object()) return Wrong(where, key, "an object", *v);
  return read(*v, Path(where, key), out);
}

// The same for an optional: present and an object sets it.
template <typename T, typename F>
Status ReadOptionalObject(const json& o, const std::string& where, const char* key, std::optional<T>* out, F read) {
  const json* v = Find(o, key);
  if (!v) return Status::Ok();
  if (!v->is_object()) return Wrong(where, key, "an object or null", *v);
  T value{};
  if (Status s = read(*v, Path(where, key), &value); !s.ok()) return s;
  *out = std::move(value);
  return Status::Ok();
}

// Runs each step in order and stops at the first error.
#define NASPERF_TRY(expr)                        \
  do {                                           \
    if (Status s_ = (expr); !s_.ok()) return s_; \
  } while (0)

Status ReadFigure(const json& j, const std::string& w, LayerFigure* f) {
  NASPERF_TRY(Read(j, w, "read_mb_per_s", &f->read_mb_per_s));
  NASPERF_TRY(Read(j, w, "write_mb_per_s", &f->write_mb_per_s));
  NASPERF_TRY(Read(j, w, "read_iops", &f->read_iops));
  NASPERF_TRY(Read(j, w, "write_iops", &f->write_iops));
  NASPERF_TRY(ReadList(j, w, "run_ids", &f->run_ids, IdElement));
  NASPERF_TRY(Read(j, w, "cached", &f->cached));
  NASPERF_TRY(Read(j, w, "read_checked_uncached", &f->read_checked_uncached));
  return Status::Ok();
}

Status ReadCpu(const json& j, const std::string& w, CpuPeak* c) {
  NASPERF_TRY(Read(j, w, "cpu", &c->cpu));
  NASPERF_TRY(Read(j, w, "busy_pct", &c->busy_pct));
  NASPERF_TRY(Read(j, w, "softirq_pct", &c->softirq_pct));
  NASPERF_TRY(Read(j, w, "irq_pct", &c->irq_pct));
  return Status::Ok();
}

Status CpuElement(const json& v, const std::string& w, CpuPeak* c) {
  if (!v.is_object()) return Status::BadInput(w + ": expected an object, got " + QuotedJson(v));
  return ReadCpu(v, w, c);
}

Status IrqElement(const json& v, const std::string& w, IrqLanding* i) {
  if (!v.is_object()) return Status::BadInput(w + ": expected an object, got " + QuotedJson(v));
  NASPERF_TRY(Read(v, w, "irq", &i->irq));
  NASPERF_TRY(Read(v, w, "name", &i->name));
  NASPERF_TRY(Read(v, w, "kind", &i->kind));
  NASPERF_TRY(Read(v, w, "device", &i->device));
  NASPERF_TRY(Read(v, w, "top_cpu", &i->top_cpu));
  NASPERF_TRY(Read(v, w, "top_share", &i->top_share));
  NASPERF_TRY(Read(v, w, "count", &i->count));
  NASPERF_TRY(Read(v, w, "smp_affinity", &i->smp_affinity));
  return Status::Ok();
}

// The inventory's NIC and RAID keys (model/inventory_json.h writes them), read strictly here:
// the inventory's own reader forgives wrong types, a diagnosis does not.
Status ReadNic(const json& j, const std::string& w, NicFacts* n) {
  NASPERF_TRY(Read(j, w, "name", &n->name));
  NASPERF_TRY(Read(j, w, "driver", &n->driver));
  NASPERF_TRY(Read(j, w, "speed_mbps", &n->speed_mbps));
  NASPERF_TRY(Read(j, w, "mtu", &n->mtu));
  NASPERF_TRY(Read(j, w, "duplex", &n->duplex));
  NASPERF_TRY(Read(j, w, "operstate", &n->operstate));
  return Status::Ok();
}

Status ReadRaid(const json& j, const std::string& w, RaidFacts* r) {
  NASPERF_TRY(Read(j, w, "kind", &r->kind));
  NASPERF_TRY(Read(j, w, "level", &r->level));
  NASPERF_TRY(Read(j, w, "metadata_level", &r->metadata_level));
  NASPERF_TRY(ReadList(j, w, "members", &r->members, StringElement));
  NASPERF_TRY(Read(j, w, "degraded_devices", &r->degraded_devices));
  NASPERF_TRY(Read(j, w, "chunk_bytes", &r->chunk_bytes));
  return Status::Ok();
}

Status ReadHost(const json& j, const std::string& w, HostEvidence* h) {
  NASPERF_TRY(Read(j, w, "measured", &h->measured));
  NASPERF_TRY(Read(j, w, "hostname", &h->hostname));
  NASPERF_TRY(Read(j, w, "cores_logical", &h->cores_logical));
  NASPERF_TRY(ReadOptionalObject(j, w, "nic", &h->nic, ReadNic));
  NASPERF_TRY(Read(j, w, "nic_bus", &h->nic_bus));
  NASPERF_TRY(Read(j, w, "nic_rated_mbps", &h->nic_rated_mbps));
  NASPERF_TRY(ReadOptionalObject(j, w, "cpu_all", &h->cpu_all, ReadCpu));
  NASPERF_TRY(ReadOptionalObject(j, w, "cpu_top", &h->cpu_top, ReadCpu));
  NASPERF_TRY(ReadList(j, w, "cpus", &h->cpus, CpuElement));
  NASPERF_TRY(ReadList(j, w, "irqs", &h->irqs, IrqElement));
  NASPERF_TRY(Read(j, w, "cgroup_path", &h->cgroup_path));
  NASPERF_TRY(Read(j, w, "cgroup_quota_cpus", &h->cgroup_quota_cpus));
  NASPERF_TRY(Read(j, w, "cgroup_usage_cpus", &h->cgroup_usage_cpus));
  NASPERF_TRY(Read(j, w, "cgroup_throttled_pct", &h->cgroup_throttled_pct));
  return Status::Ok();
}

Status MemberElement(const json& v, const std::string& w, MemberEvidence* m) {
  if (!v.is_object()) return Status::BadInput(w + ": expected an object, got " + QuotedJson(v));
  NASPERF_TRY(Read(v, w, "device", &m->device));
  NASPERF_TRY(Read(v, w, "model", &m->model));
  NASPERF_TRY(Read(v, w, "driver", &m->driver));
  NASPERF_TRY(Read(v, w, "link", &m->link));
  NASPERF_TRY(ReadObject(v, w, "seq", &m->seq, ReadFigure));
  NASPERF_TRY(ReadObject(v, w, "rand", &m->rand, ReadFigure));
  return Status::Ok();
}

Status ReadNet(const json& j, const std::string& w, NetEvidence* n) {
  NASPERF_TRY(Read(j, w, "measured", &n->measured));
  NASPERF_TRY(Read(j, w, "up_1_mb_per_s", &n->up_1_mb_per_s));
  NASPERF_TRY(Read(j, w, "up_4_mb_per_s", &n->up_4_mb_per_s));
  NASPERF_TRY(Read(j, w, "down_1_mb_per_s", &n->down_1_mb_per_s));
  NASPERF_TRY(Read(j, w, "down_4_mb_per_s", &n->down_4_mb_per_s));
  NASPERF_TRY(Read(j, w, "retransmits", &n->retransmits));
  NASPERF_TRY(Read(j, w, "segments_sent", &n->segments_sent));
  NASPERF_TRY(Read(j, w, "retransmit_pct", &n->retransmit_pct));
  NASPERF_TRY(ReadList(j, w, "run_ids", &n->run_ids, IdElement));
  return Status::Ok();
}

Status PairElement(const json& v, const std::string& w, std::pair<std::string, std::string>* p) {
  if (!v.is_object()) return Status::BadInput(w + ": expected an object {\"name\", \"value\"}, got " + QuotedJson(v));
  NASPERF_TRY(Read(v, w, "name", &p->first));
  NASPERF_TRY(Read(v, w, "value", &p->second));
  return Status::Ok();
}

Status ReadEvidence(const json& j, const std::string& w, Evidence* e) {
  NASPERF_TRY(Read(j, w, "target", &e->target));
  NASPERF_TRY(Read(j, w, "target_kind", &e->target_kind));
  NASPERF_TRY(Read(j, w, "mode", &e->mode));
  NASPERF_TRY(Read(j, w, "agent", &e->agent));
  NASPERF_TRY(ReadObject(j, w, "client", &e->client, ReadHost));
  NASPERF_TRY(ReadObject(j, w, "nas", &e->nas, ReadHost));
  NASPERF_TRY(ReadObject(j, w, "client_ceiling", &e->client_ceiling, ReadFigure));
  NASPERF_TRY(Read(j, w, "client_cpu_us_per_io", &e->client_cpu_us_per_io));
  NASPERF_TRY(Read(j, w, "client_cpu_busy_pct", &e->client_cpu_busy_pct));
  NASPERF_TRY(ReadOptionalObject(j, w, "raid", &e->raid, ReadRaid));
  NASPERF_TRY(Read(j, w, "volume_fs", &e->volume_fs));
  NASPERF_TRY(ReadList(j, w, "members", &e->members, MemberElement));
  NASPERF_TRY(ReadObject(j, w, "volume_seq", &e->volume_seq, ReadFigure));
  NASPERF_TRY(ReadObject(j, w, "volume_rand", &e->volume_rand, ReadFigure));
  NASPERF_TRY(ReadObject(j, w, "net", &e->net, ReadNet));
  NASPERF_TRY(ReadObject(j, w, "protocol_seq", &e->protocol_seq, ReadFigure));
  NASPERF_TRY(ReadObject(j, w, "protocol_rand", &e->protocol_rand, ReadFigure));
  NASPERF_TRY(Read(j, w, "protocol_label", &e->protocol_label));
  NASPERF_TRY(ReadList(j, w, "negotiated", &e->negotiated, PairElement));
  NASPERF_TRY(ReadList(j, w, "not_measured", &e->not_measured, StringElement));
  NASPERF_TRY(Read(j, w, "stated_line_rate_mbps", &e->stated_line_rate_mbps));
  return Status::Ok();
}

Status RowElement(const json& v, const std::string& w, WaterfallRow* r) {
  if (!v.is_object()) return Status::BadInput(w + ": expected an object, got " + QuotedJson(v));
  NASPERF_TRY(Read(v, w, "layer", &r->layer));
  NASPERF_TRY(Read(v, w, "what", &r->what));
  NASPERF_TRY(Read(v, w, "mb_per_s", &r->mb_per_s));
  NASPERF_TRY(Read(v, w, "pct_of_line_rate", &r->pct_of_line_rate));
  NASPERF_TRY(Read(v, w, "pct_of_payload_max", &r->pct_of_payload_max));
  NASPERF_TRY(Read(v, w, "cached", &r->cached));
  NASPERF_TRY(Read(v, w, "caps", &r->caps));
  NASPERF_TRY(Read(v, w, "note", &r->note));
  return Status::Ok();
}

Status CauseElement(const json& v, const std::string& w, Cause* c) {
  if (!v.is_object()) return Status::BadInput(w + ": expected an object, got " + QuotedJson(v));
  NASPERF_TRY(Read(v, w, "rule", &c->rule));
  NASPERF_TRY(Read(v, w, "layer", &c->layer));
  NASPERF_TRY(Read(v, w, "summary", &c->summary));
  NASPERF_TRY(ReadList(v, w, "evidence", &c->evidence, StringElement));
  return Status::Ok();
}

Status ReadDiagnosis(const json& j, Diagnosis* d) {
  const std::string w;
  NASPERF_TRY(Read(j, w, "id", &d->id));
  NASPERF_TRY(Read(j, w, "started_at", &d->started_at));
  NASPERF_TRY(Read(j, w, "command_line", &d->command_line));
  NASPERF_TRY(Read(j, w, "partial", &d->partial));
  NASPERF_TRY(Read(j, w, "error", &d->error));
  NASPERF_TRY(Read(j, w, "line_rate_mbps", &d->line_rate_mbps));
  NASPERF_TRY(Read(j, w, "line_rate_mb_per_s", &d->line_rate_mb_per_s));
  NASPERF_TRY(Read(j, w, "payload_max_mb_per_s", &d->payload_max_mb_per_s));
  NASPERF_TRY(Read(j, w, "end_to_end_mb_per_s", &d->end_to_end_mb_per_s));
  NASPERF_TRY(Read(j, w, "end_to_end_direction", &d->end_to_end_direction));
  if (!d->end_to_end_direction.empty() && d->end_to_end_direction != "read" && d->end_to_end_direction != "write")
    return Wrong(w, "end_to_end_direction", "\"read\" or \"write\"", j.at("end_to_end_direction"));
  NASPERF_TRY(Read(j, w, "cap_layer", &d->cap_layer));
  NASPERF_TRY(Read(j, w, "unexplained_shortfall_pct", &d->unexplained_shortfall_pct));
  NASPERF_TRY(ReadList(j, w, "waterfall", &d->waterfall, RowElement));
  NASPERF_TRY(ReadList(j, w, "causes", &d->causes, CauseElement));
  NASPERF_TRY(ReadList(j, w, "not_measured", &d->not_measured, StringElement));
  NASPERF_TRY(ReadObject(j, w, "evidence", &d->evidence, ReadEvidence));
  NASPERF_TRY(Read(j, w, "summary", &d->summary));
  NASPERF_TRY(Read(j, w, "line_rate_source", &d->line_rate_source));
  return Status::Ok();
}

#undef NASPERF_TRY

}  // namespace

ojson DiagnosisToJson(const Diagnosis& d) {
  ojson j;
  j["id"] = d.id;
  j["started_at"] = d.started_at;
  j["command_line"] = d.command_line;
  j["partial"] = d.partial;
  j["error"] = d.error;
  j["line_rate_mbps"] = OrNullJson(d.line_rate_mbps);
  j["line_rate_mb_per_s"] = OrNullJson(d.line_rate_mb_per_s);
  j["payload_max_mb_per_s"] = OrNullJson(d.payload_max_mb_per_s);
  j["end_to_end_mb_per_s"] = OrNullJson(d.end_to_end_mb_per_s);
  j["end_to_end_direction"] = d.end_to_end_direction;
  j["cap_layer"] = d.cap_layer;
  j["unexplained_shortfall_pct"] = OrNullJson(d.unexplained_shortfall_pct);
  ojson rows = ojson::array();
  for (const WaterfallRow& r : d.waterfall) rows.push_back(RowToJson(r));
  j["waterfall"] = rows;
  ojson causes = ojson::array();
  for (const Cause& c : d.causes) causes.push_back(CauseToJson(c));
  j["causes"] = causes;
  j["not_measured"] = StringsJson(d.not_measured);
  j["evidence"] = EvidenceToJson(d.evidence);
  j["summary"] = d.summary;
  j["line_rate_source"] = d.line_rate_source;
  return j;
}

Result<Diagnosis> DiagnosisFromJson(const json& j) {
  if (!j.is_object()) return Status::BadInput("diagnosis: expected an object, got " + QuotedJson(j));
  Diagnosis d;
  try {
    if (Status s = ReadDiagnosis(j, &d); !s.ok()) return Status::BadInput("diagnosis: " + s.message());
  } catch (const json::exception& e) {  // every access is checked first; this is the backstop
    return Status::BadInput(std::string("diagnosis: ") + e.what());
  }
  return d;
}

}  // namespace nasperf
