//! Load and store data paths as resources (the "D" columns of IACA and the thesis): a load
//! wider than its port's data path (`memory.load_port_bytes`) holds the port for one more
//! cycle per extra chunk, as does a store wider than the store-data path
//! (`memory.store_data_bytes`). Modelled as extra µops on the same ports, since the engine's
//! port is busy for one cycle per µop.

use crate::ir::Instr;
use crate::uarch::{MicroArch, PortMask, Role};

/// Adds the extra data-path cycles of `instr`'s wide loads and stores to its µops.
pub fn widen(instr: &Instr, arch: &MicroArch, uops: &mut Vec<PortMask>) {
    let loads = arch.ports_with_role(Role::Load);
    let store_data = arch.ports_with_role(Role::StoreData);
    for m in instr.mem.iter().filter(|m| !m.agen && m.size > 0) {
        if m.read {
            extra(uops, loads, m.size, arch.memory.load_port_bytes);
        }
        if m.write {
            extra(uops, store_data, m.size, arch.memory.store_data_bytes);
        }
    }
}

/// Repeats the µop confined to `ports` once per extra `width`-byte chunk of `size`.
fn extra(uops: &mut Vec<PortMask>, ports: PortMask, size: u32, width: Option<u32>) {
    let Some(width) = width.filter(|&w| w > 0) else {
        return;
    };
    let chunks = size.div_ceil(width);
    if chunks <= 1 || ports.is_empty() {
        return;
    }
    if let Some(&uop) = uops.iter().find(|u| !u.is_empty() && u.0 & !ports.0 == 0) {
        uops.extend(std::iter::repeat_n(uop, (chunks - 1) as usize));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::decode_bytes;

    #[test]
    fn a_256_bit_load_holds_a_sandy_bridge_load_port_two_cycles() {
        let snb = crate::uarch::load("SNB").expect("SNB");
        let skl = crate::uarch::load("SKL").expect("SKL");
        // vmovups ymm0, [rax]; vmovups [rax], ymm0; movups xmm0, [rax]
        let code = [
            0xc5, 0xfc, 0x10, 0x00, 0xc5, 0xfc, 0x11, 0x00, 0x0f, 0x10, 0x00,
        ];
        let instrs = decode_bytes(&code, 0).expect("decodes");
        let p23 = snb.ports_with_role(Role::Load);
        let p4 = snb.ports_with_role(Role::StoreData);
        let mut load = vec![p23];
        widen(&instrs[0], &snb, &mut load);
        assert_eq!(load, vec![p23, p23]);
        let mut store = vec![p23, p4];
        widen(&instrs[1], &snb, &mut store);
        assert_eq!(store, vec![p23, p4, p4]);
        let mut narrow = vec![p23];
        widen(&instrs[2], &snb, &mut narrow);
        assert_eq!(narrow, vec![p23]);
        let mut skl_load = vec![skl.ports_with_role(Role::Load)];
        widen(&instrs[0], &skl, &mut skl_load);
        assert_eq!(skl_load.len(), 1, "32-byte paths on Skylake");
    }
}
