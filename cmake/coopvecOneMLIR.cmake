# One MLIR in the process (included by coopvecConfig.cmake).
#
# libcoopvec.so runs on the shared libMLIR.so and libLLVM.so. A host that
# also links MLIR's or LLVM's static libraries (MLIRIR, LLVMSupport, ...,
# the usual out-of-tree way) links and runs with two copies of MLIR: the
# executable's copy takes over some of libcoopvec's references and not
# others (two pass registries, two TypeID tables). Nothing fails at link
# time, so at the end of the directory that found coopvec, every
# executable and shared library there and below that links a coopvec
# target is checked for static MLIR or LLVM libraries among everything it
# links, and gets a warning naming them (docs/embedding.md).

if(CMAKE_VERSION VERSION_LESS 3.19)
  return() # no cmake_language(DEFER) to run the check
endif()
# The host's policies may be older than what this file is written for.
cmake_policy(PUSH)
cmake_policy(VERSION 3.19)

if(NOT COMMAND _coopvec_check_one_mlir) # not defined by an earlier find

# `item` (a link item) without the generator expression around a plain name
# ($<LINK_ONLY:x>) and the directory suffix CMake adds (x::@(...)); empty
# for other generator expressions, which are not followed.
function(_coopvec_link_item_name item out)
  string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" item "${item}")
  string(REGEX REPLACE "::@\\(.*\\)$" "" item "${item}")
  if(item MATCHES "\\$<")
    set(item "")
  endif()
  set(${out} "${item}" PARENT_SCOPE)
endfunction()

# Whether `item` is a static MLIR or LLVM library: an imported static
# target named MLIR*/LLVM*, such a name that is no target here (found in
# another directory), or a libMLIR*.a / libLLVM*.a path. The archives of
# MLIR's C API are not: coopvec_static's users link them, over the shared
# libMLIR.
function(_coopvec_is_static_mlir item out)
  set(static FALSE)
  if(TARGET "${item}")
    get_target_property(type "${item}" TYPE)
    if(type STREQUAL "STATIC_LIBRARY" AND item MATCHES "^(MLIR|LLVM)")
      set(static TRUE)
    endif()
  elseif(item MATCHES "^(MLIR|LLVM)[A-Z][A-Za-z0-9_]*$" AND
         NOT item MATCHES "^(MLIRExecutionEngineShared|MLIRCAPI.*)$")
    set(static TRUE)
  elseif(item MATCHES "(^|/)lib(MLIR|LLVM)[A-Za-z0-9_]*\\.a$" AND
         NOT item MATCHES "libMLIRCAPI[A-Za-z0-9_]*\\.a$")
    set(static TRUE)
  endif()
  set(${out} ${static} PARENT_SCOPE)
endfunction()

# What `target` links, directly or through targets (MLIR's and LLVM's own
# are not entered): `static` gets the static MLIR / LLVM libraries,
# `coopvec` whether a coopvec target is among them.
function(_coopvec_link_closure target static coopvec)
  set(work "${target}")
  set(seen "")
  set(found "")
  set(uses_coopvec FALSE)
  while(work)
    list(POP_FRONT work item)
    _coopvec_link_item_name("${item}" item)
    if(item STREQUAL "" OR item IN_LIST seen)
      continue()
    endif()
    list(APPEND seen "${item}")
    _coopvec_is_static_mlir("${item}" is_static)
    if(is_static)
      list(APPEND found "${item}")
    elseif(item MATCHES "^coopvec::")
      set(uses_coopvec TRUE)
    elseif(TARGET "${item}" AND NOT item MATCHES "^(MLIR|LLVM)")
      get_target_property(links "${item}" INTERFACE_LINK_LIBRARIES)
      get_target_property(imported "${item}" IMPORTED)
      get_target_property(type "${item}" TYPE)
      if(NOT imported AND NOT type STREQUAL "INTERFACE_LIBRARY")
        get_target_property(own "${item}" LINK_LIBRARIES)
        list(APPEND links ${own})
      endif()
      list(FILTER links EXCLUDE REGEX "-NOTFOUND$")
      list(APPEND work ${links})
    endif()
  endwhile()
  set(${static} "${found}" PARENT_SCOPE)
  set(${coopvec} ${uses_coopvec} PARENT_SCOPE)
endfunction()

# The targets defined in `dir` and its subdirectories.
function(_coopvec_directory_targets dir out)
  get_property(targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(subdir IN LISTS subdirs)
    _coopvec_directory_targets("${subdir}" more)
    list(APPEND targets ${more})
  endforeach()
  set(${out} "${targets}" PARENT_SCOPE)
endfunction()

function(_coopvec_check_one_mlir dir)
  _coopvec_directory_targets("${dir}" targets)
  foreach(target IN LISTS targets)
    get_target_property(type "${target}" TYPE)
    if(NOT type MATCHES "^(EXECUTABLE|SHARED_LIBRARY|MODULE_LIBRARY)$")
      continue()
    endif()
    _coopvec_link_closure("${target}" static uses_coopvec)
    if(uses_coopvec AND static)
      list(LENGTH static count)
      list(SUBLIST static 0 4 named)
      list(JOIN named ", " named)
      if(count GREATER 4)
        string(APPEND named ", ...")
      endif()
      message(WARNING "coopvec: target '${target}' links MLIR's or LLVM's "
        "static libraries (${named}) and coopvec, whose libcoopvec.so runs "
        "on the shared libMLIR.so and libLLVM.so: the process would hold two "
        "copies of MLIR, and the executable's would take over some of "
        "libcoopvec's references. Link the shared MLIR instead: "
        "target_link_libraries(${target} PRIVATE MLIR coopvec::coopvec), "
        "with find_package(MLIR CONFIG HINTS \${COOPVEC_MLIR_DIR}); see "
        "coopvec's docs/embedding.md, \"One MLIR in the process\".")
    endif()
  endforeach()
endfunction()

endif()

# Once per directory that finds coopvec, at its end (the targets exist).
get_property(_coopvec_checked DIRECTORY PROPERTY COOPVEC_ONE_MLIR_CHECK)
if(NOT _coopvec_checked AND COMMAND _coopvec_check_one_mlir)
  set_property(DIRECTORY PROPERTY COOPVEC_ONE_MLIR_CHECK TRUE)
  cmake_language(DEFER CALL _coopvec_check_one_mlir
    "${CMAKE_CURRENT_SOURCE_DIR}")
endif()
unset(_coopvec_checked)
cmake_policy(POP)
