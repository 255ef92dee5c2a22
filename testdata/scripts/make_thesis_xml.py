#!/usr/bin/env python3
"""Builds testdata/xml/thesis.xml: the instruction skeletons (XED-derived operand lists, as
in uops.info's file) of the SUACA thesis' example instructions, with measurements of our own
that follow the values the thesis shows (2018 data: e.g. loads and stores without a latency
entry, so SUACA used latency 1). Usage: make_thesis_xml.py FULL_INSTRUCTIONS_XML > thesis.xml
"""
import sys
import xml.etree.ElementTree as ET

# string -> {arch: (ports, uops, [(start_op, target_op, cycles)])}
WANTED = {
    "MOV (R64, I32)": {"SNB": ("1*p015", 1, []), "SKL": ("1*p0156", 1, [])},
    "CMP (R64, 0)": {"SNB": ("1*p015", 1, [(1, 3, 1)])},
    "JNZ (Rel8)": {"SNB": ("1*p5", 1, [])},
    "JMP (Rel8)": {"SNB": ("1*p5", 1, [])},
    "ADD_01 (R64, R64)": {"SNB": ("1*p015", 1, [(1, 1, 1), (2, 1, 1), (1, 3, 1), (2, 3, 1)])},
    "ADC (R64, I8)": {"SKL": ("1*p06", 1, [(1, 1, 1), (3, 1, 1), (1, 3, 1), (3, 3, 1)])},
    "VMOVSD (XMM, M64)": {"IVB": ("1*p23", 1, [])},
    "VADDSD (XMM, XMM, M64)": {"IVB": ("1*p1+1*p23", 2, [(2, 1, 3)])},
    "VMULSD (XMM, XMM, XMM)": {"IVB": ("1*p0", 1, [(2, 1, 5), (3, 1, 5)])},
    "VMOVSD (M64, XMM)": {"IVB": ("1*p23+1*p4", 2, [])},
    "INC (R64)": {"IVB": ("1*p015", 1, [(1, 1, 1), (1, 2, 1)])},
    "CMP_39 (R64, R64)": {"IVB": ("1*p015", 1, [(1, 3, 1), (2, 3, 1)])},
}

root = ET.parse(sys.argv[1]).getroot()
out = ET.Element("root", {"date": "2018-07-10"})
ext = ET.SubElement(out, "extension", {"name": "THESIS"})
for ins in root.iter("instruction"):
    s = ins.get("string")
    if s not in WANTED:
        continue
    new = ET.SubElement(ext, "instruction", dict(ins.attrib))
    for op in ins.findall("operand"):
        o = ET.SubElement(new, "operand", dict(op.attrib))
        o.text = op.text
    for arch, (ports, uops, lats) in WANTED.pop(s).items():
        a = ET.SubElement(new, "architecture", {"name": arch})
        m = ET.SubElement(a, "measurement", {"uops": str(uops), "ports": ports})
        for start, target, cycles in lats:
            ET.SubElement(m, "latency", {"start_op": str(start), "target_op": str(target), "cycles": str(cycles)})
assert not WANTED, f"not found: {sorted(WANTED)}"
ET.indent(out, "  ")
print('<?xml version="1.0" ?>')
print("<!-- suaca test fixture: thesis example instructions; skeletons as in uops.info's file,"
      " measurements of our own following the SUACA thesis' numbers. Made by"
      " testdata/scripts/make_thesis_xml.py. -->")
print(ET.tostring(out, encoding="unicode"))
