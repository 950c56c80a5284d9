# Writes INPUT as a C array named SYMBOL (plus SYMBOL##Size) into OUTPUT.
# Run as: cmake -DINPUT=... -DOUTPUT=... -DSYMBOL=... -P EmbedFile.cmake
file(READ "${INPUT}" content HEX)
string(LENGTH "${content}" hexLength)
math(EXPR size "${hexLength} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${content}")
string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){16})" "\\1\n  " bytes "${bytes}")
file(WRITE "${OUTPUT}"
  "// Generated from ${INPUT} by cmake/EmbedFile.cmake. Do not edit.\n"
  "const char ${SYMBOL}[] = {\n  ${bytes}0x00};\n"
  "const unsigned long ${SYMBOL}Size = ${size};\n")
