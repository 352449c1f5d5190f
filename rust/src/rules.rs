//! The rules bundle: every rule the move generator applies, as numbers and flat tables compiled
//! from a variant in Python (`kernel_rules` in `literaki_cli/engine/movegen.py`).

/// Letter codes (and rack slots) run 0..64: a code fits six bits.
pub const CODE_SPACE: usize = 64;
pub const START: usize = 0;
pub const END: usize = 1;

#[derive(Clone, Debug)]
pub struct Rules {
    pub rows: usize,
    pub cols: usize,
    /// A new tile's value on each square: `[square * CODE_SPACE + code]`.
    pub new_value: Vec<i64>,
    /// A tile's plain value (tiles already on the board).
    pub tile_value: Vec<i64>,
    /// The word multiplier of a new tile's square.
    pub word_mult: Vec<i64>,
    /// Directional multipliers: `[(direction * 2 + end) * squares + square]`.
    pub end_mult: Vec<i64>,
    pub bingo_tiles: i64,
    pub bingo_bonus: i64,
    /// The shortest and longest word a move may form.
    pub min_word: i64,
    pub max_word: i64,
    pub first_move_min_tiles: i64,
    /// The start square (row, column) that the first move must cover.
    pub start: (usize, usize),
    /// The squares grouped by what a new tile is worth on them (`classify`): each square's class
    /// and one square of each class; empty when there are more than MAX_CLASSES.
    pub square_class: Vec<u8>,
    pub class_square: Vec<usize>,
    /// Per code: the most a new tile of it is worth on any square (`classify`).
    pub top_value: Vec<i64>,
}

/// The most square classes the best-move bounds tell apart (Literaki has five: plain, and one per
/// tile colour).
pub const MAX_CLASSES: usize = 8;

impl Rules {
    #[inline(always)]
    pub fn squares(&self) -> usize {
        self.rows * self.cols
    }

    #[inline(always)]
    pub fn new_value(&self, square: usize, code: usize) -> i64 {
        self.new_value[square * CODE_SPACE + code]
    }

    #[inline(always)]
    pub fn end_mult(&self, direction: usize, end: usize, square: usize) -> i64 {
        self.end_mult[(direction * 2 + end) * self.squares() + square]
    }

    /// Groups the squares by their row of `new_value` (what every letter is worth there): the
    /// best-move bounds count a span's squares per class.  Left empty beyond MAX_CLASSES.  Also
    /// `top_value`, what the bounds of every search would otherwise recount square by square.
    pub fn classify(mut self) -> Self {
        let squares = self.squares();
        self.top_value =
            (0..CODE_SPACE).map(|code| (0..squares).map(|sq| self.new_value(sq, code)).fold(0, i64::max)).collect();
        let mut class_square: Vec<usize> = Vec::new();
        let mut square_class = Vec::with_capacity(squares);
        for sq in 0..squares {
            let row = &self.new_value[sq * CODE_SPACE..(sq + 1) * CODE_SPACE];
            let found = class_square.iter().position(|&c| &self.new_value[c * CODE_SPACE..(c + 1) * CODE_SPACE] == row);
            let class = found.unwrap_or_else(|| {
                class_square.push(sq);
                class_square.len() - 1
            });
            square_class.push(class as u8);
        }
        if class_square.len() <= MAX_CLASSES {
            self.square_class = square_class;
            self.class_square = class_square;
        }
        self
    }

    /// Checks that the tables have the sizes the board asks for (a one-line error otherwise).
    pub fn check(&self) -> Result<(), String> {
        let squares = self.squares();
        let sizes = [
            ("new_value", self.new_value.len(), squares * CODE_SPACE),
            ("tile_value", self.tile_value.len(), CODE_SPACE),
            ("word_mult", self.word_mult.len(), squares),
            ("end_mult", self.end_mult.len(), 4 * squares),
        ];
        for (name, got, wanted) in sizes {
            if got != wanted {
                return Err(format!("rules table {name} has {got} entries, the board needs {wanted}"));
            }
        }
        if self.rows > crate::movegen::LANE || self.cols > crate::movegen::LANE {
            return Err(format!(
                "a {}x{} board: at most {} rows and columns",
                self.rows,
                self.cols,
                crate::movegen::LANE
            ));
        }
        if self.start.0 >= self.rows || self.start.1 >= self.cols {
            return Err(format!("start square {:?} is off a {}x{} board", self.start, self.rows, self.cols));
        }
        if self.max_word > crate::movegen::MAX_WORD as i64 || self.min_word < 1 {
            return Err(format!("word lengths {}..{} out of range", self.min_word, self.max_word));
        }
        Ok(())
    }
}

#[cfg(test)]
impl Rules {
    /// A board of `rows` x `cols` plain squares on which every tile is worth 0, words of 2 to 15
    /// letters, a bingo of 7 tiles worth nothing: what a test starts from and changes.
    pub fn plain(rows: usize, cols: usize) -> Rules {
        let squares = rows * cols;
        Rules {
            rows,
            cols,
            new_value: vec![0; squares * CODE_SPACE],
            tile_value: vec![0; CODE_SPACE],
            word_mult: vec![1; squares],
            end_mult: vec![1; 4 * squares],
            bingo_tiles: 7,
            bingo_bonus: 0,
            min_word: 2,
            max_word: 15,
            first_move_min_tiles: 2,
            start: (0, 0),
            square_class: Vec::new(),
            class_square: Vec::new(),
            top_value: vec![0; CODE_SPACE],
        }
    }
}
