# Writes the library's version source (src/run/version.cpp.in) at every
# build, not once at configure: the commit it names is the one built, so
# that `nqueens --version` tells two builds of one version apart (a package
# installed, a binary beside a benchmark's figures). The file is rewritten
# only when its text changes, so an unchanged tree rebuilds nothing.
#   cmake -DSOURCE_DIR=... -DTEMPLATE=... -DOUTPUT=... -DPROJECT_VERSION=... -P write_version.cmake
set(NQUEENS_BUILD_COMMIT "")
find_program(git_program git)
if(git_program)
  # Quiet where the source is no git checkout (a tarball), or one git
  # refuses to read as another user's: no commit is named then. git looks
  # upwards for a repository: one that holds the source (a home folder's, a
  # project that vendors this one) is not the source's own.
  execute_process(COMMAND ${git_program} -C ${SOURCE_DIR} rev-parse --show-toplevel --short=12 HEAD
                  OUTPUT_VARIABLE answer OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE status)
  string(REPLACE "\n" ";" answer "${answer}")
  list(LENGTH answer lines)
  if(status EQUAL 0 AND lines EQUAL 2)
    list(GET answer 0 top)
    list(GET answer 1 commit)
    file(REAL_PATH "${top}" top)
    file(REAL_PATH "${SOURCE_DIR}" source)
    if(top STREQUAL source AND commit MATCHES "^[0-9a-f]+$")
      # Tracked files changed since that commit (untracked ones aside),
      # without writing the repository's index as `git diff` would.
      execute_process(COMMAND ${git_program} --no-optional-locks -C ${SOURCE_DIR} status --porcelain
                              --untracked-files=no
                      OUTPUT_VARIABLE changes ERROR_QUIET RESULT_VARIABLE status)
      set(NQUEENS_BUILD_COMMIT ${commit})
      if(NOT status EQUAL 0 OR NOT changes STREQUAL "")
        string(APPEND NQUEENS_BUILD_COMMIT "-dirty")
      endif()
    endif()
  endif()
endif()
configure_file(${TEMPLATE} ${OUTPUT} @ONLY)
