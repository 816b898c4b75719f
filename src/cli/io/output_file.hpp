#pragma once

// An output file (scale's --csv) that is either whole or untouched: the text
// goes to an unnamed temporary file in the target's directory, which gets a
// hidden name and is renamed over the target only on success, so a failed,
// interrupted or killed run leaves the old contents in place and no file.
// Where a rename would change the file the name stands for (one with other
// hard links, or an owner or group a new file cannot take, which a sticky
// directory also forbids to rename over) or the directory takes no new
// file, the text is kept in memory and written over the file in place at
// the commit: still untouched by a failed run, and by a write refused at
// once (a file-size limit, checked first; no room, reserved first where the
// file system can), though a crash or a failing disk in the commit's
// microseconds may leave it part written.

#include <sys/types.h>

#include <string>
#include <string_view>

namespace nqueens::cli {

/// The first line of the files an output_file may replace: `now`, the
/// header it writes, or a header it wrote before columns were added at the
/// end (`now` cut before one of its commas), never shorter than `oldest`.
struct own_first_line {
  std::string_view now{};     ///< without its newline
  std::string_view oldest{};  ///< a prefix of `now`
  /// Whether `line` (without its newline) is one of them.
  bool matches(std::string_view line) const noexcept;
};

class output_file {
 public:
  /// Checks `path` and creates the temporary file in its directory (unnamed;
  /// named ".<name>.XXXXXX" from the start where O_TMPFILE or /proc is
  /// missing), so that a path that cannot be written fails before any work.
  /// `what` names the file in messages ("--csv file"). An existing file is
  /// replaced only when it is empty or its first line is `own`'s, as the
  /// files this one replaces have (a CSV's header line, whole: a file with a
  /// column of the user's added is not one): a mistyped name never costs
  /// another file. Throws usage_error for an empty name, a directory,
  /// anything but a regular file (a symlink is followed), an existing file we
  /// may not write, a checkpoint journal or any other file not of this kind
  /// (never overwritten), or a directory where the file cannot be created
  /// (and none to write in place).
  output_file(const std::string& path, std::string what, own_first_line own);
  /// Removes the temporary file unless committed.
  ~output_file();
  output_file(const output_file&) = delete;
  output_file& operator=(const output_file&) = delete;

  /// Appends `text`. Throws std::runtime_error when a write fails ("cannot
  /// write WHAT 'PATH': REASON (while STEP)").
  void write(std::string_view text);

  /// Makes the text written the file's contents: fsync, link under the
  /// hidden name, check the target's kind and contents again (a file that
  /// came in its place meanwhile, a journal or another's, is kept), then
  /// rename over the target. Throws std::runtime_error, leaving the target
  /// as it was.
  void commit();

 private:
  [[noreturn]] void fail(const std::string& step, int error) const;
  void check_target_again() const;
  void link_temporary();
  void commit_in_place();

  std::string path_;    ///< as given, for messages
  std::string target_;  ///< what is replaced: `path_` with a symlink resolved
  std::string temp_;    ///< the temporary file's name; empty while it has none
  std::string what_;
  own_first_line own_;
  int fd_ = -1;  ///< the temporary file; none in place
  bool in_place_ = false;
  std::string in_place_text_;
  mode_t in_place_mode_ = 0;  ///< of the file replaced, for one created in its place
  bool committed_ = false;
};

}  // namespace nqueens::cli
