//! Stand-ins for the fixed-function stages of the compatibility profile: a program
//! with a fragment shader but no vertex shader gets a vertex shader doing what
//! fixed-function vertex processing does without lighting (transform by the
//! modelview-projection matrix, pass colors through, transform texture
//! coordinates, eye-space clip vertex), and a program without a fragment shader
//! gets one writing the interpolated primary color. Both are GLSL 1.10 shaders
//! compiled once per context and linked in like user shaders.

use std::sync::Arc;

use rgl_glsl::{compile, CompileOptions, CompiledShader, Stage};

/// Fixed-function vertex processing (no lighting, fog or texgen).
const VERTEX: &str = "#version 110
void main()
{
    gl_Position = ftransform();
    gl_ClipVertex = gl_ModelViewMatrix * gl_Vertex;
    gl_FrontColor = gl_Color;
    gl_BackColor = gl_Color;
    gl_FrontSecondaryColor = gl_SecondaryColor;
    gl_BackSecondaryColor = gl_SecondaryColor;
    gl_TexCoord[0] = gl_TextureMatrix[0] * gl_MultiTexCoord0;
    gl_TexCoord[1] = gl_TextureMatrix[1] * gl_MultiTexCoord1;
    gl_TexCoord[2] = gl_TextureMatrix[2] * gl_MultiTexCoord2;
    gl_TexCoord[3] = gl_TextureMatrix[3] * gl_MultiTexCoord3;
    gl_TexCoord[4] = gl_TextureMatrix[4] * gl_MultiTexCoord4;
    gl_TexCoord[5] = gl_TextureMatrix[5] * gl_MultiTexCoord5;
    gl_TexCoord[6] = gl_TextureMatrix[6] * gl_MultiTexCoord6;
    gl_TexCoord[7] = gl_TextureMatrix[7] * gl_MultiTexCoord7;
    gl_FogFragCoord = abs((gl_ModelViewMatrix * gl_Vertex).z);
}
";

/// Fixed-function fragment processing without texturing or fog.
const FRAGMENT: &str = "#version 110
void main()
{
    gl_FragColor = gl_Color;
}
";

/// The compiled stand-ins of one context.
#[derive(Debug, Default)]
pub(crate) struct FixedFunctionShaders {
    vertex: Option<Arc<CompiledShader>>,
    fragment: Option<Arc<CompiledShader>>,
}

fn build(stage: Stage, source: &str) -> Arc<CompiledShader> {
    let compiled = compile(source, &CompileOptions::new(stage));
    if !compiled.success() {
        log::error!(
            "the built-in fixed-function {stage:?} shader does not compile: {}",
            compiled.info_log
        );
    }
    Arc::new(compiled)
}

impl FixedFunctionShaders {
    /// The stand-in for `stage` (vertex or fragment), compiled on first use;
    /// shared with the link jobs that use it.
    pub(crate) fn get(&mut self, stage: Stage) -> Option<Arc<CompiledShader>> {
        let (slot, source) = match stage {
            Stage::Vertex => (&mut self.vertex, VERTEX),
            Stage::Fragment => (&mut self.fragment, FRAGMENT),
            _ => return None,
        };
        Some(Arc::clone(slot.get_or_insert_with(|| build(stage, source)))).filter(|c| c.success())
    }
}
