# Configures tests/add-subdirectory (a project holding nqueens as a
# subdirectory) with no build type, then again with Debug, and reads its
# compile commands: the project's build type is never changed (nqueens alone
# makes an empty one Release), and where it is empty nqueens' own sources,
# the kernels, the unity batches and the generated version.cpp among them,
# are still compiled -O3 (the last -O given) with NDEBUG while the project's
# own are not; under Debug nqueens adds neither. Configured only (a build of
# the library would take minutes), and without CUDA: finding nvcc takes most
# of a configure (2 s without it, 12 with; two took 170 s under CI's load),
# and the options are the folder's, whatever the language. The environment's
# CMAKE_BUILD_TYPE and CXXFLAGS, which CMake would take as the project's,
# are unset for it. A multi-config generator has no empty build type: skipped.
foreach(var SOURCE_DIR WORK_DIR PROJECT_DIR CXX_COMPILER GENERATOR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run.cmake needs -D${var}=...")
  endif()
endforeach()
if(GENERATOR MATCHES "Multi-Config|Visual Studio|Xcode")
  message(STATUS "add-subdirectory: skipped, ${GENERATOR} has a build type per configuration")
  return()
endif()

function(configure build)
  set(tbb)
  if(TBB_DIR)  # a sanitizer build's own oneTBB
    set(tbb -DTBB_DIR=${TBB_DIR})
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=CMAKE_BUILD_TYPE --unset=CXXFLAGS
                          ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${build} -G ${GENERATOR}
                          -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DNQUEENS_SOURCE_DIR=${PROJECT_DIR}
                          -DNQUEENS_WITH_CUDA=OFF -DCMAKE_EXPORT_COMPILE_COMMANDS=ON ${tbb} ${ARGN}
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

# Whether each source of `build`'s compile_commands.json is optimized
# (its last -O flag -O3, and -DNDEBUG): `library` for those of nqueens'
# tree (its sources and the build folder it was added in), `parent` for
# the others. Fails on the first that is not, or where either kind has none.
function(expect_optimized build library parent)
  file(READ ${build}/compile_commands.json json)
  string(JSON count LENGTH "${json}")
  math(EXPR last "${count} - 1")
  set(seen_library 0)
  set(seen_parent 0)
  foreach(i RANGE ${last})
    string(JSON file GET "${json}" ${i} file)
    string(JSON command GET "${json}" ${i} command)
    set(source_dir ${PROJECT_DIR}/src)
    set(binary_dir ${build}/nqueens)
    cmake_path(IS_PREFIX source_dir "${file}" NORMALIZE in_source)
    cmake_path(IS_PREFIX binary_dir "${file}" NORMALIZE in_binary)
    if(in_source OR in_binary)
      set(expected ${library})
      math(EXPR seen_library "${seen_library} + 1")
    else()
      set(expected ${parent})
      math(EXPR seen_parent "${seen_parent} + 1")
    endif()
    string(REGEX MATCHALL " -O[0-9a-z]*" levels " ${command}")
    list(POP_BACK levels level)
    set(optimized FALSE)
    if(level STREQUAL " -O3" AND command MATCHES " -DNDEBUG( |$)")
      set(optimized TRUE)
    endif()
    if(NOT optimized STREQUAL expected)
      message(FATAL_ERROR "${file}: optimized ${optimized}, expected ${expected}: ${command}")
    endif()
  endforeach()
  if(seen_library EQUAL 0 OR seen_parent EQUAL 0)
    message(FATAL_ERROR "${build}: ${seen_library} of nqueens' sources and ${seen_parent} of the parent's compiled")
  endif()
  message(STATUS "${build}: ${seen_library} of nqueens' sources and ${seen_parent} of the parent's as expected")
endfunction()

set(build ${WORK_DIR}/build)
file(REMOVE_RECURSE ${build})
configure(${build})
expect_build_type(${build} "")
expect_optimized(${build} TRUE FALSE)

configure(${build} -DCMAKE_BUILD_TYPE=Debug)  # again, as a user who sets one later
expect_build_type(${build} Debug)
expect_optimized(${build} FALSE FALSE)

message(STATUS "add-subdirectory: every check passed")
