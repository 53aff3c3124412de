# cmake -DARENA=PATH -DHELP2MAN=PATH -DOUT=DIR -DWRAP=DIR -P man.cmake
# The man pages, from the program's own --help and --version only (help2man):
# skipbo-arena.1, and skipbo-arena-COMMAND.1 for each command its --help lists.
file(GLOB old ${OUT}/*.1)
if(old)
  file(REMOVE ${old})
endif()
file(MAKE_DIRECTORY ${OUT} ${WRAP})

execute_process(COMMAND ${ARENA} --help OUTPUT_VARIABLE help COMMAND_ERROR_IS_FATAL ANY)
# "  NAME     summary" lines between "commands:" and the next blank line
string(REGEX MATCH "commands:\n(  [a-z]+ +[^\n]+\n)+" block "${help}")
string(REGEX MATCHALL "  [a-z]+ +[^\n]+" lines "${block}")
if(NOT lines)
  message(FATAL_ERROR "no commands in \"${ARENA} --help\":\n${help}")
endif()

set(see_also "skipbo-arena(1)")
foreach(line ${lines})
  string(REGEX REPLACE "^  ([a-z]+) +(.*)$" "\\1" name "${line}")
  string(REGEX REPLACE "^  ([a-z]+) +(.*)$" "\\2" summary_${name} "${line}")
  list(APPEND names ${name})
  string(APPEND see_also ", skipbo-arena-${name}(1)")
endforeach()
file(WRITE ${WRAP}/see-also.h2m "[SEE ALSO]\n${see_also}\n")

execute_process(COMMAND ${ARENA} --version OUTPUT_VARIABLE version COMMAND_ERROR_IS_FATAL ANY)
string(REGEX REPLACE "^skipbo-arena ([^\n]+)\n?$" "\\1" version "${version}")

# help2man reads one program: WRAP/NAME runs skipbo-arena (COMMAND), its synopsis
# lines spelt "Usage:" and "   or:" and its version bare, as help2man expects.
function(page name command summary)
  set(exe ${WRAP}/${name})
  file(WRITE ${exe} "#!/bin/sh
case $1 in
--version) '${ARENA}' ${command} --version | sed 's/^skipbo-arena //' ;;
*) '${ARENA}' ${command} \"$@\" | sed -e 's/^usage:/Usage:/' -e 's/^       skipbo-arena /   or: skipbo-arena /' ;;
esac
")
  file(CHMOD ${exe} PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
  execute_process(COMMAND ${HELP2MAN} --no-info --section 1 --source "skipbo-arena ${version}"
      --name ${summary} --include ${WRAP}/see-also.h2m --output ${OUT}/${name}.1 ${exe}
    COMMAND_ERROR_IS_FATAL ANY)
endfunction()

page(skipbo-arena "" "a tournament platform for Skip-Bo bots")
foreach(name ${names})
  page(skipbo-arena-${name} ${name} "${summary_${name}}")
endforeach()
