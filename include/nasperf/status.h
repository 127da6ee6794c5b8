// Errors as values: Status for operations without a result, Result<T> for those with one.
#pragma once

#include <cerrno>
#include <string>
#include <utility>
#include <variant>

namespace nasperf {

// Why an operation failed; the kind decides the process exit status in main().
enum class ErrorKind {
  kNone,
  kBadInput,     // user's options, job file or imported file: exit 2
  kIo,           // an I/O error while running (EIO, ENOSPC ...): exit 1
  kUnavailable,  // something needed is missing on this machine: exit 1
  kInterrupted,  // Ctrl-C: exit 130
};

class Status {
 public:
  Status() = default;
  static Status Ok() { return Status(); }
  static Status BadInput(std::string message) { return Status(ErrorKind::kBadInput, std::move(message), 0); }
  static Status Io(std::string message, int err = 0) { return Status(ErrorKind::kIo, std::move(message), err); }
  static Status Unavailable(std::string message) { return Status(ErrorKind::kUnavailable, std::move(message), 0); }
  static Status Interrupted() { return Status(ErrorKind::kInterrupted, "interrupted", 0); }

  bool ok() const { return kind_ == ErrorKind::kNone; }
  ErrorKind kind() const { return kind_; }
  const std::string& message() const { return message_; }
  // The errno behind an I/O failure, 0 when there is none.
  int err() const { return err_; }

 private:
  Status(ErrorKind kind, std::string message, int err) : kind_(kind), message_(std::move(message)), err_(err) {}
  ErrorKind kind_ = ErrorKind::kNone;
  std::string message_;
  int err_ = 0;
};

// "open /x/y: No such file or directory" — the one way errno failures become Status.
Status ErrnoStatus(const std::string& what, const std::string& subject, int err,
                   ErrorKind kind = ErrorKind::kIo);

template <typename T>
class Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : value_(std::move(status)) {}  // NOLINT: implicit by design

  bool ok() const { return std::holds_alternative<T>(value_); }
  const T& value() const& { return std::get<T>(value_); }
  T& value() & { return std::get<T>(value_); }
  // By value, so `for (x : F().value())` owns what it iterates instead of dangling.
  T value() && { return std::get<T>(std::move(value_)); }
  const Status& status() const { return ok() ? ok_status_ : std::get<Status>(value_); }

 private:
  std::variant<T, Status> value_;
  static inline const Status ok_status_{};
};

}  // namespace nasperf
