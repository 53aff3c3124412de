# cmake -DIN=page.html -DOUT=page.c -DNAME=symbol -P embed_page.cmake: write
# OUT defining `const char NAME[]`, the bytes of IN and a final NUL, so the
# page is edited as HTML and compiled into the program, and
# `const unsigned long NAME_size`, their number without the NUL (for a
# file that is not text).
file(READ ${IN} hex HEX)
string(LENGTH "${hex}" digits)
math(EXPR size "${digits} / 2")
string(REGEX REPLACE "(..)" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "((0x..,){16})" "\\1\n" bytes "${bytes}")
file(WRITE ${OUT}.tmp "/* generated from ${IN} by embed_page.cmake */\nextern const char ${NAME}[];\nconst char ${NAME}[] = {\n${bytes}0x00 };\nextern const unsigned long ${NAME}_size;\nconst unsigned long ${NAME}_size = ${size};\n")
file(RENAME ${OUT}.tmp ${OUT})
