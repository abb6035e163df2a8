// torus2d.cpp — a rows × cols 2-D torus: rank = row·cols + col, a ring along every row and every column.
//
// Dimension-order ("x then y") routing, Dally & Seitz (1987): a message first travels along its source row to
// the destination's column, then along that column to the destination's row, each leg the shorter way round
// (wraparound links included). Every route is fixed by the two ranks, so there is nothing to tabulate. The
// hop count is the torus distance: min(|Δcol|, cols − |Δcol|) + min(|Δrow|, rows − |Δrow|).
//
// Links: first the x rings, row by row (rows × ring_link_count(cols)), then the y rings, column by column
// (cols × ring_link_count(rows)); within a ring, ring_routing.h's numbering. Names: "torus (1,2)→(1,3)".
#include <memory>
#include <string>

#include "net/family.h"
#include "net/ring_routing.h"

namespace dsml::net {

namespace {

class Torus2d final : public Family {
 public:
  Torus2d(int rows, int cols, const CostModel& model)
      : rows_(rows), cols_(cols), x_links_(ring_link_count(cols)), y_links_(ring_link_count(rows)), model_(model) {}

  const char* kind() const override { return "torus2d"; }
  int ranks() const override { return rows_ * cols_; }
  int links() const override { return rows_ * x_links_ + cols_ * y_links_; }

  std::string link_name(int link) const override {
    int from = 0, to = 0;
    if (link < rows_ * x_links_) {  // along row `row`: the column changes
      const int row = link / x_links_;
      ring_link_ends(cols_, link % x_links_, from, to);
      return "torus " + point(row, from) + "→" + point(row, to);
    }
    link -= rows_ * x_links_;       // along column `col`: the row changes
    const int col = link / y_links_;
    ring_link_ends(rows_, link % y_links_, from, to);
    return "torus " + point(from, col) + "→" + point(to, col);
  }

  void route(int src, int dst, Route& out) const override {
    const int src_row = src / cols_, src_col = src % cols_, dst_row = dst / cols_, dst_col = dst % cols_;
    const RingPath x = ring_path(src_col, dst_col, cols_);  // leg 1: along the source row
    const RingPath y = ring_path(src_row, dst_row, rows_);  // leg 2: along the destination column
    int* link = add_hops(out, x.hops + y.hops, model_.alpha, model_.beta);
    const int row_base = src_row * x_links_, col_base = rows_ * x_links_ + dst_col * y_links_;
    for (int h = 0, col = src_col; h < x.hops; ++h, col = ring_next(cols_, col, x.step))
      *link++ = row_base + ring_link(cols_, col, x.step);
    for (int h = 0, row = src_row; h < y.hops; ++h, row = ring_next(rows_, row, y.step))
      *link++ = col_base + ring_link(rows_, row, y.step);
  }

 private:
  static std::string point(int row, int col) { return "(" + std::to_string(row) + "," + std::to_string(col) + ")"; }

  int rows_, cols_;
  int x_links_, y_links_;  // directed links of one row ring, of one column ring
  CostModel model_;
};

}  // namespace

std::shared_ptr<const Family> make_torus2d(int rows, int cols, const CostModel& model) {
  return std::make_shared<Torus2d>(rows, cols, model);
}

}  // namespace dsml::net
