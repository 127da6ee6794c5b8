// `nasperf results`: its subcommands' options, and the dispatch to them (results_*.cpp).
// Each opens the database, checks its arguments (bad ones are exit 2 with one line) and
// renders with the same table/JSON code as `run`.
#include "cli/results_command.h"

#include "cli/commands.h"
#include "cli/results_subcommands.h"

namespace nasperf {

CLI::App* AddResultsCommand(CLI::App& app, ResultsCommandOptions& o) {
  CLI::App* results = app.add_subcommand("results", "list, show, compare, tag, remove, export and import stored runs; compare disk models");
  results->require_subcommand(1);
  AddOutputOptions(*results, o.common);

  CLI::App* list = results->add_subcommand("list", "one line per stored run, newest first");
  AddRunFilterOptions(*list, o);
  CLI::App* show = results->add_subcommand("show", "everything stored about runs");
  show->add_option("ID", o.ids, "run ids, or one sweep id (s7), or one diagnosis id (d3)")->required();
  CLI::App* compare = results->add_subcommand("compare", "runs side by side; a quick run brings its whole set");
  compare->add_option("ID", o.ids,
                      "run ids, the first is the baseline (default: the newest run or quick set of each target, "
                      "up to six, oldest first)");
  compare->add_option(
      "--line", o.line,
      "also show each MB/s figure as % of a line rate: 1g, 2.5g, 10g (Gbit/s), 100m (Mbit/s) or MB/s (67)");
  CLI::App* tag = results->add_subcommand("tag", "add or change tags: tag ID key=value ...");
  tag->add_option("ARGS", o.ids, "ID key=value ...")->required();
  CLI::App* rm = results->add_subcommand("rm", "remove runs");
  rm->add_option("ID", o.ids, "run ids")->required();
  rm->add_flag("--yes,-y", o.yes, "do not ask");
  rm->add_flag("--force", o.force,
               "remove even a run recorded as in progress on another host (whose process this host cannot check)");
  CLI::App* exp = results->add_subcommand("export", "all matching runs as CSV or the JSON document");
  exp->add_flag("--csv", o.csv, "CSV, one row per run and direction");
  AddRunFilterOptions(*exp, o);
  CLI::App* imp = results->add_subcommand("import", "store runs measured by fio, iozone, CrystalDiskMark or nasperf");
  imp->add_option("FILE", o.files,
                  "fio --output-format=json, iozone -a / -R report, CrystalDiskMark text, nasperf's --json document")
      ->required();
  imp->add_option("--format", o.format, "auto | nasperf | fio | iozone | cdm (default auto)");
  imp->add_option("--tag", o.tags, "label the imported runs: --tag key=value")->allow_extra_args(false);
  imp->add_option("--name", o.import_name, "a name for the imported runs");
  CLI::App* disks = results->add_subcommand(
      "disks", "per disk model (runs tagged disk=MODEL): sequential and random figures, cost and power per spec");
  disks->add_option("--spec", o.spec,
                    "a TOML file of [disk.\"MODEL\"] tables: price, capacity_gb, idle_watts, active_watts, interface "
                    "(docs/results.md)");
  AddRunFilterOptions(*disks, o);
  for (CLI::App* sub : {list, show, compare, tag, rm, exp, imp, disks}) AddOutputOptions(*sub, o.common);
  return results;
}

int ResultsCommand(CLI::App& results, const ResultsCommandOptions& o) {
  if (results.got_subcommand("list")) return ResultsList(o);
  if (results.got_subcommand("show")) return ResultsShow(o);
  if (results.got_subcommand("compare")) return ResultsCompare(o);
  if (results.got_subcommand("tag")) return ResultsTag(o);
  if (results.got_subcommand("rm")) return ResultsRemove(o);
  if (results.got_subcommand("export")) return ResultsExport(o);
  if (results.got_subcommand("import")) return ResultsImport(o);
  if (results.got_subcommand("disks")) return ResultsDisks(o);
  return ReportFailure(Status::BadInput("results: unknown subcommand"));
}

}  // namespace nasperf
