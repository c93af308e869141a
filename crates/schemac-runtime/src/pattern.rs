//! ECMA-262 patterns at run time. OWNER: pattern helper.
