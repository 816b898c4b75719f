# Installs the build in BUILD_DIR into WORK_DIR/prefix, then configures,
# builds and runs the consumer project against it: what a user of the
# installed package does. Then checks that no installed file names the
# tree it was built in, and that the installed tool and the consumer look
# for the GPU module in the prefix and nowhere else. Fails on the first
# step that fails.
foreach(var BUILD_DIR SOURCE_DIR WORK_DIR CXX_COMPILER GENERATOR PROJECT_DIR GPU_MODULE_INSTALL_DIR TOOLS_INSTALL_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run.cmake needs -D${var}=...")
  endif()
endforeach()

file(REMOVE_RECURSE ${WORK_DIR})
# "@x@" in the prefix: the package writes the path as it is, never taking
# it for a CMake variable to substitute.
set(prefix ${WORK_DIR}/pre@fix@)

function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "failed (${status}): ${ARGN}")
  endif()
endfunction()

step(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
set(configure ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build -G ${GENERATOR}
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_PREFIX_PATH=${prefix})
set(tbb_dir_option)
if(TBB_DIR)  # a sanitizer build's own oneTBB
  set(tbb_dir_option -DTBB_DIR=${TBB_DIR})
  list(APPEND configure ${tbb_dir_option})
endif()
if(SANITIZE)  # an instrumented library needs an instrumented program
  list(APPEND configure "-DCMAKE_CXX_FLAGS=-fsanitize=${SANITIZE}" "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=${SANITIZE}")
endif()
step(${configure})
step(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
step(${WORK_DIR}/build/consumer)

# The installed target names its include folder once.
file(GLOB targets_files ${prefix}/*/cmake/nqueens/nqueensTargets.cmake ${prefix}/*/*/cmake/nqueens/nqueensTargets.cmake)
foreach(file IN LISTS targets_files)
  file(STRINGS ${file} includes REGEX "INTERFACE_INCLUDE_DIRECTORIES")
  if(includes MATCHES "include;")
    message(FATAL_ERROR "${file} lists its include folder more than once: ${includes}")
  endif()
endforeach()
if(NOT targets_files)
  message(FATAL_ERROR "no nqueensTargets.cmake under ${prefix}")
endif()
# A component asked for is refused saying why: the package has none.
file(WRITE ${WORK_DIR}/components/CMakeLists.txt
     "cmake_minimum_required(VERSION 3.25)\nproject(components NONE)\nfind_package(nqueens REQUIRED COMPONENTS bogus)\n")
execute_process(COMMAND ${CMAKE_COMMAND} -S ${WORK_DIR}/components -B ${WORK_DIR}/components/build
                        -DCMAKE_PREFIX_PATH=${prefix} ${tbb_dir_option}
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(status EQUAL 0 OR NOT out MATCHES "nqueens has no components: 'bogus' was asked for")
  message(FATAL_ERROR "COMPONENTS bogus gave ${status}: ${out}")
endif()

# The build tree is no package: a project pointed at it finds none, with
# no error (it held a config whose targets exist only once installed).
file(WRITE ${WORK_DIR}/build-tree/CMakeLists.txt
     "cmake_minimum_required(VERSION 3.25)\nproject(build_tree NONE)\n"
     # the build tree alone, not a package this machine has installed
     "find_package(nqueens QUIET NO_PACKAGE_ROOT_PATH NO_CMAKE_ENVIRONMENT_PATH NO_CMAKE_SYSTEM_PATH\n"
     "             NO_SYSTEM_ENVIRONMENT_PATH NO_CMAKE_PACKAGE_REGISTRY NO_CMAKE_SYSTEM_PACKAGE_REGISTRY)\n"
     # Where a config was found, nqueens_DIR names its folder, even where
     # the config then failed (its oneTBB is not found by a project of no
     # language): what this looks for.
     "message(STATUS \"nqueens found: [\${nqueens_FOUND}] in [\${nqueens_DIR}]\")\n")
execute_process(COMMAND ${CMAKE_COMMAND} -S ${WORK_DIR}/build-tree -B ${WORK_DIR}/build-tree/build
                        -DCMAKE_PREFIX_PATH=${BUILD_DIR} -Dnqueens_DIR=
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT status EQUAL 0 OR NOT out MATCHES "nqueens found: \\[0\\] in \\[nqueens_DIR-NOTFOUND\\]" OR out MATCHES "CMake (Error|Warning)")
  message(FATAL_ERROR "find_package(nqueens) in the build tree gave ${status}: ${out}")
endif()

# No installed file names this tree: a program that looked for its GPU
# module there would load whatever another user puts there once the tree is
# gone. A build with debug information (the sanitizers' RelWithDebInfo)
# names the source and build folders for debuggers, which load nothing from
# them: there only the module's own build path is looked for.
set(build_paths ${GPU_MODULE_BUILT_AT})
if(BUILD_TYPE MATCHES "^(Release|MinSizeRel)$")
  list(APPEND build_paths ${PROJECT_DIR} ${BUILD_DIR})
endif()
file(GLOB_RECURSE installed LIST_DIRECTORIES false ${prefix}/*)
foreach(file IN LISTS installed)
  file(STRINGS ${file} text)
  foreach(path IN LISTS build_paths)
    string(FIND "${text}" "${path}" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "the installed ${file} names the build tree: ${path}")
    endif()
  endforeach()
endforeach()
list(LENGTH installed files)
message(STATUS "no build path in the ${files} installed files")

if(NOT GPU_MODULE_BUILT)
  message(STATUS "built without CUDA: no GPU module to look for")
  message(STATUS "find-package: every check passed")
  return()
endif()
# What `--engine gpu` says on the device backend, NQUEENS_GPU_MODULE unset.
function(gpu_says variable)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=NQUEENS_GPU_MODULE NQUEENS_GPU=device ${ARGN}
                  OUTPUT_VARIABLE out ERROR_VARIABLE out)
  set(${variable} "${out}" PARENT_SCOPE)
endfunction()
set(consumer ${WORK_DIR}/build/consumer gpu)
set(tool ${prefix}/${TOOLS_INSTALL_DIR}/nqueens count 8 --engine gpu)
set(module ${prefix}/${GPU_MODULE_INSTALL_DIR}/libnqueens-gpu.so)
if(NOT EXISTS ${module})
  message(FATAL_ERROR "no GPU module installed at ${module}")
endif()
# Installed, the module is found by both (then the machine decides: where
# it has no GPU, the module says why).
gpu_says(consumer_says ${consumer})
gpu_says(tool_says ${tool})
foreach(said consumer_says tool_says)
  if(${said} MATCHES "looked for|is refused")
    message(FATAL_ERROR "the installed module was not loaded (${said}): ${${said}}")
  endif()
endforeach()
# Gone, each says where it looked: the prefix alone (the tool beside itself
# first, as in the build tree).
file(RENAME ${module} ${WORK_DIR}/libnqueens-gpu.so)
gpu_says(consumer_says ${consumer})
gpu_says(tool_says ${tool})
file(REAL_PATH ${prefix} real_prefix)
set(consumer_looks "looked for ${module};")
set(tool_looks "looked for ${real_prefix}/${TOOLS_INSTALL_DIR}/libnqueens-gpu.so, ${real_prefix}/${GPU_MODULE_INSTALL_DIR}/libnqueens-gpu.so;")
foreach(who consumer tool)
  string(FIND "${${who}_says}" "${${who}_looks}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the ${who} did not look for the GPU module in ${prefix} alone: ${${who}_says}")
  endif()
  message(STATUS "the ${who}: ${${who}_says}")
endforeach()
message(STATUS "find-package: every check passed")
