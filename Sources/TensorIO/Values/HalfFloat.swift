/// IEEE 754 half-precision conversions, written out because `Float16` is not available on every
/// platform Swift runs on.
@_spi(Internal) public enum HalfFloat {
    /// The nearest half-precision value's bits (round to nearest even).
    @_spi(Internal) public static func bits(from value: Float) -> UInt16 {
        let bits = value.bitPattern
        let sign = UInt16((bits >> 16) & 0x8000)
        let exponent = Int((bits >> 23) & 0xFF)
        var mantissa = bits & 0x7F_FFFF
        if exponent == 0xFF {  // infinity or NaN
            return sign | 0x7C00 | (mantissa != 0 ? 0x200 : 0)
        }
        let halfExponent = exponent - 127 + 15
        if halfExponent >= 0x1F { return sign | 0x7C00 }  // overflow to infinity
        if halfExponent <= 0 {  // subnormal half or zero
            if halfExponent < -10 { return sign }
            mantissa |= 0x80_0000
            let shift = UInt32(14 - halfExponent)
            var half = mantissa >> shift
            let remainder = mantissa & ((1 << shift) - 1)
            let halfway = UInt32(1) << (shift - 1)
            if remainder > halfway || (remainder == halfway && half & 1 == 1) { half += 1 }
            return sign | UInt16(half)
        }
        var half = UInt32(halfExponent) << 10 | (mantissa >> 13)
        let remainder = mantissa & 0x1FFF
        if remainder > 0x1000 || (remainder == 0x1000 && half & 1 == 1) { half += 1 }
        return sign | UInt16(half)
    }

    /// The value of half-precision bits.
    @_spi(Internal) public static func float(from bits: UInt16) -> Float {
        let sign = UInt32(bits & 0x8000) << 16
        let exponent = UInt32(bits >> 10) & 0x1F
        let mantissa = UInt32(bits & 0x3FF)
        switch exponent {
        case 0:
            // Zero or subnormal: mantissa × 2^-24.
            let magnitude = Float(mantissa) * Float(sign: .plus, exponent: -24, significand: 1)
            return sign == 0 ? magnitude : -magnitude
        case 0x1F:
            return Float(bitPattern: sign | 0x7F80_0000 | (mantissa << 13))
        default:
            return Float(bitPattern: sign | ((exponent + 112) << 23) | (mantissa << 13))
        }
    }
}
