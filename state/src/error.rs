//! GL errors: the codes `glGetError` reports. A call that fails records its error and
//! changes no state; the first recorded error is kept until `get_error` reads it,
//! as GL specifies for implementations with one error flag.

/// A GL error code.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum GlError {
    /// `GL_INVALID_ENUM`: an enum argument out of range.
    #[error("GL_INVALID_ENUM")]
    InvalidEnum,
    /// `GL_INVALID_VALUE`: a numeric argument out of range, or an unknown name.
    #[error("GL_INVALID_VALUE")]
    InvalidValue,
    /// `GL_INVALID_OPERATION`: the call is not allowed in the current state.
    #[error("GL_INVALID_OPERATION")]
    InvalidOperation,
    /// `GL_INVALID_FRAMEBUFFER_OPERATION`: the framebuffer is not complete.
    #[error("GL_INVALID_FRAMEBUFFER_OPERATION")]
    InvalidFramebufferOperation,
    /// `GL_OUT_OF_MEMORY`: an allocation failed or exceeded rgl's limits.
    #[error("GL_OUT_OF_MEMORY")]
    OutOfMemory,
    /// `GL_STACK_OVERFLOW`: `glPushMatrix` on a full matrix stack
    /// (GL 3.3 compatibility §2.12.2).
    #[error("GL_STACK_OVERFLOW")]
    StackOverflow,
    /// `GL_STACK_UNDERFLOW`: `glPopMatrix` on a stack of one matrix
    /// (GL 3.3 compatibility §2.12.2).
    #[error("GL_STACK_UNDERFLOW")]
    StackUnderflow,
}

impl GlError {
    /// The numeric GL code.
    pub fn code(self) -> u32 {
        match self {
            GlError::InvalidEnum => crate::gl::INVALID_ENUM,
            GlError::InvalidValue => crate::gl::INVALID_VALUE,
            GlError::InvalidOperation => crate::gl::INVALID_OPERATION,
            GlError::InvalidFramebufferOperation => crate::gl::INVALID_FRAMEBUFFER_OPERATION,
            GlError::OutOfMemory => crate::gl::OUT_OF_MEMORY,
            GlError::StackOverflow => crate::gl::STACK_OVERFLOW,
            GlError::StackUnderflow => crate::gl::STACK_UNDERFLOW,
        }
    }
}

/// Why a `glCreate*` / `glGen*` call made no object. The call has recorded
/// the matching GL error ([`CreateError::gl_error`]) as well.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CreateError {
    /// `glCreateShader` of a type that is not a shader stage rgl has
    /// (`GL_INVALID_ENUM`).
    #[error("invalid shader type 0x{0:04X}")]
    InvalidShaderType(u32),
    /// Every name of the object's name space is in use (`GL_OUT_OF_MEMORY`);
    /// holds the kind of object (`texture`, `vertex array`).
    #[error("out of {0} names")]
    OutOfNames(&'static str),
}

impl CreateError {
    /// The GL error the call recorded.
    pub fn gl_error(&self) -> GlError {
        match self {
            CreateError::InvalidShaderType(_) => GlError::InvalidEnum,
            CreateError::OutOfNames(_) => GlError::OutOfMemory,
        }
    }
}

/// Result of an internal state operation: the error to record on failure.
pub type GlResult<T> = Result<T, GlError>;
