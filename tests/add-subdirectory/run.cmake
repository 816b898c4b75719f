# Configures tests/add-subdirectory (a project holding nqueens as a
# subdirectory) with no build type, then again with Debug, and reads its
# compile commands: the project's build type is never changed (nqueens alone
# makes an empty one Release), and where it is empty nqueens' own sources,
# the kernels among them, are still compiled -O3 with NDEBUG while the
# project's own are not; under Debug nqueens adds nothing. Configured only
# (a build of the library would take minutes), and without CUDA: finding
# nvcc takes most of a configure (2 s without it, 12 with; two took 170 s
# under CI's load), and the options are the folder's, whatever the language.
foreach(var SOURCE_DIR WORK_DIR PROJECT_DIR CXX_COMPILER GENERATOR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run.cmake needs -D${var}=...")
  endif()
endforeach()

# The compile command of each source under `dir` in `build`'s
# compile_commands.json, as "file\tcommand" lines in `out`.
function(commands_under build dir out)
  file(READ ${build}/compile_commands.json json)
  string(JSON count LENGTH "${json}")
  set(found)
  math(EXPR last "${count} - 1")
  foreach(i RANGE ${last})
    string(JSON file GET "${json}" ${i} file)
    string(JSON command GET "${json}" ${i} command)
    cmake_path(IS_PREFIX dir "${file}" NORMALIZE under)
    if(under)
      list(APPEND found "${file}\t${command}")
    endif()
  endforeach()
  set(${out} "${found}" PARENT_SCOPE)
endfunction()

function(configure build)
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${build} -G ${GENERATOR}
                          -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DNQUEENS_SOURCE_DIR=${PROJECT_DIR}
                          -DNQUEENS_WITH_CUDA=OFF -DCMAKE_EXPORT_COMPILE_COMMANDS=ON ${ARGN}
                  RESULT_VARIABLE status OUTPUT_QUIET)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "the parent project did not configure (${status}): ${ARGN}")
  endif()
endfunction()

function(expect_build_type build expected)
  file(STRINGS ${build}/CMakeCache.txt line REGEX "^CMAKE_BUILD_TYPE:")
  if(NOT line STREQUAL "CMAKE_BUILD_TYPE:STRING=${expected}")
    message(FATAL_ERROR "the parent's build type became '${line}', where it set '${expected}'")
  endif()
endfunction()

# `expected`: whether each source under `dir` has -O3 and -DNDEBUG.
function(expect_optimized build dir expected)
  commands_under(${build} ${dir} commands)
  if(NOT commands)
    message(FATAL_ERROR "no compile command under ${dir} in ${build}")
  endif()
  foreach(entry IN LISTS commands)
    string(REPLACE "\t" ";" parts "${entry}")
    list(GET parts 0 file)
    list(GET parts 1 command)
    set(optimized FALSE)
    if(command MATCHES " -O3( |$)" AND command MATCHES " -DNDEBUG( |$)")
      set(optimized TRUE)
    endif()
    if(NOT optimized STREQUAL expected)
      message(FATAL_ERROR "${file}: optimized ${optimized}, expected ${expected}: ${command}")
    endif()
  endforeach()
endfunction()

set(build ${WORK_DIR}/build)
file(REMOVE_RECURSE ${build})
configure(${build})
expect_build_type(${build} "")
expect_optimized(${build} ${PROJECT_DIR}/src TRUE)
expect_optimized(${build} ${SOURCE_DIR} FALSE)

configure(${build} -DCMAKE_BUILD_TYPE=Debug)  # again, as a user who sets one later
expect_build_type(${build} Debug)
expect_optimized(${build} ${PROJECT_DIR}/src FALSE)
expect_optimized(${build} ${SOURCE_DIR} FALSE)

message(STATUS "add-subdirectory: every check passed")
