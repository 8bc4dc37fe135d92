/* macro_names.c - which names a kernel's -D macro cannot take, and why. */
#include "model/macro_names.h"

#include <stdlib.h>
#include <string.h>

#include "core/array.h"

/* C11 and C++20 keywords, the alternative operator names and the contextual ones: as
 * macros they rewrite the language itself. */
static const char *const keywords[] = {
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch",
    "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept", "const", "consteval", "constexpr",
    "constinit", "const_cast", "continue", "co_await", "co_return", "co_yield", "decltype", "default", "delete",
    "do", "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "final", "float",
    "for", "friend", "goto", "if", "import", "inline", "int", "long", "module", "mutable", "namespace", "new",
    "noexcept", "not", "not_eq", "nullptr", "operator", "or", "or_eq", "override", "private", "protected",
    "public", "register", "reinterpret_cast", "requires", "restrict", "return", "short", "signed", "sizeof",
    "static", "static_assert", "static_cast", "struct", "switch", "template", "this", "thread_local", "throw",
    "true", "try", "typedef", "typeid", "typename", "union", "unsigned", "using", "virtual", "void", "volatile",
    "wchar_t", "while", "xor", "xor_eq",
};

/* What mmbench itself defines or declares in compiles: the element types, B's layout
 * (the dtypes that hold B K-major) and the stdint prelude's types (cuda/compile.c). */
static const char *const harness[] = {
    "elem_t", "acc_t", "out_t", "b_col_major", "int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t",
    "uint64_t", "intptr_t", "uintptr_t",
};

static bool listed(const char *const *list, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(list[i], name))
            return true;
    return false;
}

static int name_cmp(const void *key, const void *item)
{
    return strcmp(key, *(const char *const *)item);
}

const char *mmb_macro_name_clash(const char *name)
{
    if (listed(keywords, MMB_COUNT(keywords), name))
        return "a C or C++ keyword";
    if ((name[0] == '_' && name[1] >= 'A' && name[1] <= 'Z') || strstr(name, "__"))
        return "reserved to the compiler (a name that starts with '_' and a capital letter, or holds '__')";
    if (listed(harness, MMB_COUNT(harness), name))
        return "a name mmbench defines in every compile itself (the element types elem_t, acc_t and out_t, "
               "B's layout b_col_major, and the stdint prelude's types)";
    if (bsearch(name, mmb_nvrtc_header_names, mmb_nvrtc_header_count, sizeof *mmb_nvrtc_header_names, name_cmp))
        return "a name of NVRTC's built-in header, which every compile includes";
    return NULL;
}
