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
  # refuses to read as another user's: no commit is named then.
  execute_process(COMMAND ${git_program} -C ${SOURCE_DIR} rev-parse --short=12 HEAD
                  OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE status)
  if(status EQUAL 0 AND commit MATCHES "^[0-9a-f]+$")
    # Tracked files changed since that commit (untracked ones aside).
    execute_process(COMMAND ${git_program} -C ${SOURCE_DIR} diff --quiet HEAD -- ERROR_QUIET
                    RESULT_VARIABLE changed)
    set(NQUEENS_BUILD_COMMIT ${commit})
    if(NOT changed EQUAL 0)
      string(APPEND NQUEENS_BUILD_COMMIT "-dirty")
    endif()
  endif()
endif()
configure_file(${TEMPLATE} ${OUTPUT} @ONLY)
