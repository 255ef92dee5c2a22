# Error fixture: no executable section with content (only data, no markers).
        .data
        .globl  just_data
just_data:
        .quad   1
