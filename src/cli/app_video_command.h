// `nasperf app video` and `app backup|restore`: their registrations under `app`
// (cli/app_command.h's kAppSubcommands), each in its own file.
#pragma once

#include "cli/app_command.h"

namespace nasperf {

void AddVideoCommand(CLI::App& app, AppCommands& commands);    // cli/app_video_command.cpp
void AddBackupCommand(CLI::App& app, AppCommands& commands);   // cli/app_backup_command.cpp
void AddRestoreCommand(CLI::App& app, AppCommands& commands);  // cli/app_backup_command.cpp

}  // namespace nasperf
