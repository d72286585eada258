// SPDX-License-Identifier: Apache-2.0
// A packed struct port of a Verilated model (axi4_pkg's, wb_pkg's) is a
// vector of 32-bit words, least significant first. packed_cursor walks one
// from its most significant field down, in the order the package declares
// the fields, putting or getting each; done() checks that the walk ended on
// the struct's first bit, so a field list that does not add up to the
// struct fails at once. Used by the C++ shells (tests/route, tests/paging).
#ifndef GMMU_TESTS_COMMON_VL_PACKED_H
#define GMMU_TESTS_COMMON_VL_PACKED_H

#include <cassert>
#include <cstdint>

class packed_cursor
{
  public:
    packed_cursor(uint32_t *words, int lsb, int width) : w_(words), lsb_(lsb), pos_(lsb + width)
    {
    }
    packed_cursor &put(uint64_t v, int width)
    {
        pos_ -= width;
        for (int i = 0; i < width; i++) {
            uint32_t bit = 1u << ((pos_ + i) % 32);
            if ((v >> i) & 1)
                w_[(pos_ + i) / 32] |= bit;
            else
                w_[(pos_ + i) / 32] &= ~bit;
        }
        return *this;
    }
    uint64_t get(int width)
    {
        uint64_t v = 0;
        pos_ -= width;
        for (int i = 0; i < width; i++)
            v |= (uint64_t)((w_[(pos_ + i) / 32] >> ((pos_ + i) % 32)) & 1) << i;
        return v;
    }
    void done() const
    {
        assert(pos_ == lsb_);
    }

  private:
    uint32_t *w_;
    int lsb_, pos_;
};

#endif /* GMMU_TESTS_COMMON_VL_PACKED_H */
