//! The guided lesson and the quiz: their text, the view each step sets up, and the checks of
//! the quiz's interactive tasks, which measure the student's settings with the app's own math.
//! Nothing here touches the browser, so every check is tested natively.

pub mod lesson;
pub mod quiz;
pub mod scorm;
